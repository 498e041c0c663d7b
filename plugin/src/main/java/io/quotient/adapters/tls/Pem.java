package io.quotient.adapters.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemGenerationException;

/** PEM text of certificates and PKCS#8 private keys (the form Tomcat and the API server's caBundle read). */
final class Pem {

    private Pem() {}

    static String encode(X509Certificate certificate) {
        return write(certificate);
    }

    static String encode(PrivateKey key) {
        try {
            return write(new JcaPKCS8Generator(key, null));
        } catch (PemGenerationException e) {
            throw new IllegalStateException("the private key cannot be written as PKCS#8: " + e.getMessage(), e);
        }
    }

    private static String write(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}

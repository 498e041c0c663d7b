package io.quotient.adapters.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * A TLS serving certificate as PEM text: the certificate, its private key (PKCS#8) and the CA bundle that a client
 * (the API server, through a webhook's {@code caBundle}) verifies it with — the current CA first, then any older CA
 * still trusted while replicas started before a renewal keep serving their certificate.
 *
 * @param caBundlePem    one or more CA certificates
 * @param certificatePem the serving certificate
 * @param privateKeyPem  its private key
 */
public record ServingCertificate(String caBundlePem, String certificatePem, String privateKeyPem) {

    public ServingCertificate {
        Objects.requireNonNull(caBundlePem, "caBundlePem");
        Objects.requireNonNull(certificatePem, "certificatePem");
        Objects.requireNonNull(privateKeyPem, "privateKeyPem");
    }

    /** The serving certificate; fails when the PEM text holds none. */
    public X509Certificate certificate() {
        List<X509Certificate> certificates = parse(certificatePem, "the serving certificate");
        return certificates.get(0);
    }

    /** The CA certificates of the bundle, current first. */
    public List<X509Certificate> authorities() {
        return parse(caBundlePem, "the CA bundle");
    }

    /**
     * Why this certificate cannot serve the given names until {@code now + renewBefore}, or empty when it can: it
     * must parse, name every subject name, be signed by the bundle's current CA, match its key, and stay valid
     * long enough.
     */
    public Optional<String> unusableBecause(Collection<String> subjectNames, Instant now, Duration renewBefore) {
        try {
            X509Certificate certificate = certificate();
            List<String> named = SubjectNames.of(certificate);
            List<String> missing = subjectNames.stream()
                    .map(SubjectNames::canonical)
                    .filter(name -> !named.contains(name))
                    .toList();
            if (!missing.isEmpty()) {
                return Optional.of("it does not name " + missing + " (it names " + named + ")");
            }
            Instant expiry = certificate.getNotAfter().toInstant();
            if (expiry.isBefore(now.plus(renewBefore))) {
                return Optional.of("it expires at " + expiry + ", less than " + renewBefore + " from now");
            }
            certificate.verify(authorities().get(0).getPublicKey());
            if (!keyMatches(certificate)) {
                return Optional.of("its private key does not belong to it");
            }
            return Optional.empty();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.of("it cannot be read or verified (" + e.getMessage() + ")");
        }
    }

    /** This certificate with older CAs appended to its bundle (kept trusted for replicas still serving under them). */
    public ServingCertificate trustingAlso(List<X509Certificate> olderAuthorities, Instant now) {
        StringBuilder bundle = new StringBuilder(caBundlePem);
        for (X509Certificate older : olderAuthorities) {
            boolean stillValid = older.getNotAfter().toInstant().isAfter(now);
            if (stillValid && !authorities().contains(older)) {
                bundle.append(Pem.encode(older));
            }
        }
        return new ServingCertificate(bundle.toString(), certificatePem, privateKeyPem);
    }

    PrivateKey privateKey() {
        try (PEMParser parser = new PEMParser(new StringReader(privateKeyPem))) {
            Object read = parser.readObject();
            if (!(read instanceof PrivateKeyInfo info)) {
                throw new IllegalArgumentException("the private key is not a PKCS#8 PEM key (found "
                        + (read == null ? "nothing" : read.getClass().getSimpleName()) + ")");
            }
            return new JcaPEMKeyConverter().getPrivateKey(info);
        } catch (IOException e) {
            throw new IllegalArgumentException("the private key cannot be read: " + e.getMessage(), e);
        }
    }

    private boolean keyMatches(X509Certificate certificate) throws GeneralSecurityException {
        byte[] challenge = "quotient-webhook-key-check".getBytes(StandardCharsets.US_ASCII);
        PrivateKey key = privateKey();
        String algorithm = "SHA256with" + ("EC".equals(key.getAlgorithm()) ? "ECDSA" : key.getAlgorithm());
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(challenge);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(challenge);
        return verifier.verify(signature);
    }

    private static List<X509Certificate> parse(String pem, String what) {
        try {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            List<X509Certificate> certificates = new ArrayList<>();
            read.forEach(c -> certificates.add((X509Certificate) c));
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException(what + " holds no PEM certificate");
            }
            return certificates;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " cannot be read: " + e.getMessage(), e);
        }
    }
}

package io.quotient.adapters.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues a serving certificate under a CA made for it alone, as controller-runtime's cert-rotator and Kueue do for
 * their webhooks: no cert-manager needed. The CA's private key is not kept — the next renewal makes a new CA (and
 * the bundle keeps the old one trusted while it is valid) — so nothing that leaks from the Secret can sign more.
 * ECDSA P-256 keys: quick to make at start, accepted by the API server's TLS client and by Tomcat.
 *
 * @param authorityValidity how long the CA is valid
 * @param validity          how long the serving certificate is valid
 */
public record CertificateIssuer(Duration authorityValidity, Duration validity) {

    /** Clocks of the API server and the service may differ a little: certificates are valid from an hour ago. */
    private static final Duration CLOCK_SKEW = Duration.ofHours(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    public CertificateIssuer {
        if (validity.compareTo(authorityValidity) > 0) {
            throw new IllegalArgumentException(
                    "the serving certificate (" + validity + ") cannot outlive its CA (" + authorityValidity + ")");
        }
    }

    /** One year for the serving certificate, ten for its CA. */
    public static CertificateIssuer standard() {
        return new CertificateIssuer(Duration.ofDays(3650), Duration.ofDays(365));
    }

    /**
     * A certificate for the given DNS names and IP addresses (the first one is also its common name), under a new CA
     * named {@code authorityName}.
     */
    public ServingCertificate issue(String authorityName, List<String> subjectNames, Instant now) {
        if (subjectNames.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one DNS name or IP address");
        }
        try {
            KeyPair authorityKeys = newKeyPair();
            X500Name authority = new X500Name("CN=" + authorityName);
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(
                    authority,
                    serial(),
                    start(now),
                    Date.from(now.plus(authorityValidity)),
                    authority,
                    authorityKeys.getPublic());
            ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            X509Certificate caCertificate = sign(ca, authorityKeys);

            KeyPair servingKeys = newKeyPair();
            X509v3CertificateBuilder serving = new JcaX509v3CertificateBuilder(
                    caCertificate,
                    serial(),
                    start(now),
                    Date.from(now.plus(validity)),
                    new X500Name("CN=" + subjectNames.get(0)),
                    servingKeys.getPublic());
            serving.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            serving.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            serving.addExtension(
                    Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            serving.addExtension(Extension.subjectAlternativeName, false, alternativeNames(subjectNames));
            X509Certificate servingCertificate = sign(serving, authorityKeys);
            return new ServingCertificate(
                    Pem.encode(caCertificate), Pem.encode(servingCertificate), Pem.encode(servingKeys.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("issuing the webhook's certificate failed: " + e.getMessage(), e);
        }
    }

    private static GeneralNames alternativeNames(List<String> subjectNames) {
        GeneralName[] names = subjectNames.stream()
                .map(name -> SubjectNames.isIpAddress(name)
                        ? new GeneralName(GeneralName.iPAddress, SubjectNames.canonical(name))
                        : new GeneralName(GeneralName.dNSName, SubjectNames.canonical(name)))
                .toArray(GeneralName[]::new);
        return new GeneralNames(names);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signerKeys)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter()
                .getCertificate(
                        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signerKeys.getPrivate())));
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM);
    }

    private static Date start(Instant now) {
        return Date.from(now.minus(CLOCK_SKEW));
    }
}

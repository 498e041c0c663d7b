package io.quotient.adapters.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CertificateIssuerTest {

    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final List<String> NAMES = List.of("quotient.quotient-system.svc", "127.0.0.1", "::1");

    @Test
    void issuesACertificateForEveryNameSignedByItsOwnCa() throws Exception {
        ServingCertificate issued = CertificateIssuer.standard().issue("test-ca", NAMES, NOW);

        X509Certificate certificate = issued.certificate();
        assertThat(SubjectNames.of(certificate))
                .containsExactly("quotient.quotient-system.svc", "127.0.0.1", "0:0:0:0:0:0:0:1");
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=quotient.quotient-system.svc");
        assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1"); // serverAuth
        assertThat(certificate.getBasicConstraints()).isEqualTo(-1); // not a CA
        X509Certificate authority = issued.authorities().get(0);
        assertThat(authority.getBasicConstraints()).isZero(); // a CA that signs no other CA
        certificate.verify(authority.getPublicKey());
        assertThat(certificate.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(365)));
        assertThat(certificate.getNotBefore().toInstant()).isBefore(NOW); // tolerates a clock behind ours
        assertThat(issued.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(issued.unusableBecause(NAMES, NOW, Duration.ofDays(30))).isEmpty();
    }

    @Test
    void saysWhyACertificateCannotServe() {
        ServingCertificate issued = CertificateIssuer.standard().issue("test-ca", List.of("a.example"), NOW);
        ServingCertificate other = CertificateIssuer.standard().issue("test-ca", List.of("a.example"), NOW);

        assertThat(issued.unusableBecause(List.of("a.example", "b.example"), NOW, Duration.ofDays(30)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("does not name [b.example]"));
        assertThat(issued.unusableBecause(List.of("a.example"), NOW.plus(Duration.ofDays(340)), Duration.ofDays(30)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("expires at 2027-11-25"));
        ServingCertificate foreignKey =
                new ServingCertificate(issued.caBundlePem(), issued.certificatePem(), other.privateKeyPem());
        assertThat(foreignKey.unusableBecause(List.of("a.example"), NOW, Duration.ofDays(30)))
                .hasValue("its private key does not belong to it");
        ServingCertificate foreignCa =
                new ServingCertificate(other.caBundlePem(), issued.certificatePem(), issued.privateKeyPem());
        assertThat(foreignCa.unusableBecause(List.of("a.example"), NOW, Duration.ofDays(30)))
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("it cannot be read or verified"));
        ServingCertificate garbage = new ServingCertificate("not pem", "not pem", "not pem");
        assertThat(garbage.unusableBecause(List.of("a.example"), NOW, Duration.ofDays(30)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("the serving certificate cannot be read"));
    }

    @Test
    void aRenewedBundleKeepsTheOldCaWhileItIsValid() {
        ServingCertificate old = CertificateIssuer.standard().issue("old-ca", List.of("a.example"), NOW);
        ServingCertificate renewed = CertificateIssuer.standard().issue("new-ca", List.of("a.example"), NOW);

        ServingCertificate both = renewed.trustingAlso(old.authorities(), NOW);
        assertThat(both.authorities())
                .extracting(c -> c.getSubjectX500Principal().getName())
                .containsExactly("CN=new-ca", "CN=old-ca");
        assertThat(both.unusableBecause(List.of("a.example"), NOW, Duration.ofDays(30)))
                .isEmpty();
        assertThat(both.trustingAlso(old.authorities(), NOW).authorities()).hasSize(2); // not added twice

        Instant afterOldCa = NOW.plus(Duration.ofDays(3651));
        assertThat(renewed.trustingAlso(old.authorities(), afterOldCa).authorities())
                .hasSize(1);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> CertificateIssuer.standard().issue("ca", List.of(), NOW))
                .hasMessageContaining("at least one DNS name or IP address");
        assertThatThrownBy(() -> new CertificateIssuer(Duration.ofDays(1), Duration.ofDays(2)))
                .hasMessageContaining("cannot outlive its CA");
    }
}

package io.quotient.app;

import io.quotient.adapters.tls.ServingCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The PEM files the admission connector serves, and the certificate behind them when the service issued it (its CA
 * then goes into the webhooks' {@code caBundle}).
 *
 * @param certificateFile PEM certificate (chain)
 * @param keyFile         PEM private key
 * @param issued          the certificate the service issued; empty for mounted files
 */
public record AdmissionTls(Path certificateFile, Path keyFile, Optional<ServingCertificate> issued) {

    /** Mounted files (cert-manager or an administrator issued them). */
    static AdmissionTls mounted(Path certificateFile, Path keyFile) {
        for (Path file : new Path[] {certificateFile, keyFile}) {
            if (!Files.isReadable(file)) {
                throw new IllegalStateException(
                        "quotient.admission.tls-cert-file and tls-key-file must name readable PEM"
                                + " files (" + file
                                + " is not readable); mount the webhook's TLS Secret and point them at"
                                + " tls.crt and tls.key, or leave both unset to have the service issue a certificate");
            }
        }
        return new AdmissionTls(certificateFile, keyFile, Optional.empty());
    }

    /** An issued certificate, written to a private temporary folder (the pod's root file system is read-only). */
    static AdmissionTls issued(ServingCertificate certificate) {
        try {
            Path folder = Files.createTempDirectory(
                    "quotient-admission-tls",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path certificateFile = Files.writeString(
                    folder.resolve("tls.crt"), certificate.certificatePem(), StandardCharsets.US_ASCII);
            Path keyFile = Files.writeString(
                    folder.resolve("tls.key"), certificate.privateKeyPem(), StandardCharsets.US_ASCII);
            folder.toFile().deleteOnExit();
            certificateFile.toFile().deleteOnExit();
            keyFile.toFile().deleteOnExit();
            return new AdmissionTls(certificateFile, keyFile, Optional.of(certificate));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "writing the admission webhook's certificate to a temporary folder failed (" + e.getMessage()
                            + "); give the service a writable /tmp (an emptyDir volume)",
                    e);
        }
    }
}

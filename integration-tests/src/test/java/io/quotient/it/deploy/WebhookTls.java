package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A self-signed serving certificate for 127.0.0.1 (made with openssl) and a free port for the service's admission
 * connector: the API server of the test plane calls webhooks registered by URL with this certificate as caBundle.
 */
public record WebhookTls(Path cert, Path key, int port) {

    public static WebhookTls make(Path dir) throws IOException, InterruptedException {
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        Process openssl = new ProcessBuilder(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-days",
                        "1",
                        "-subj",
                        "/CN=127.0.0.1",
                        "-addext",
                        "subjectAltName=IP:127.0.0.1",
                        "-keyout",
                        key.toString(),
                        "-out",
                        cert.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(openssl.waitFor())
                .as(new String(openssl.getInputStream().readAllBytes()))
                .isZero();
        try (ServerSocket socket = new ServerSocket(0)) {
            return new WebhookTls(cert, key, socket.getLocalPort());
        }
    }

    public byte[] caBundle() throws IOException {
        return Files.readAllBytes(cert);
    }

    /** The service's arguments that open the admission port with this certificate. */
    public String[] args() {
        return argsOn(port);
    }

    /** The same certificate on another port (a second replica on this host). */
    public String[] argsOn(int admissionPort) {
        return new String[] {
            "--quotient.admission.port=" + admissionPort,
            "--quotient.admission.tls-cert-file=" + cert,
            "--quotient.admission.tls-key-file=" + key
        };
    }
}

package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The admission port without certificate files: the service issues its own certificate, and a client that trusts
 * only the issued CA (as the API server does through the caBundle) completes the TLS handshake by name and by IP.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"quotient.cluster.mode=embedded", "quotient.admission.extra-subject-names=quotient.example"})
class IssuedAdmissionCertificateTest {

    private static final int ADMISSION_PORT = freePort();

    @Autowired
    private AdmissionTls tls;

    @LocalServerPort
    private int apiPort;

    @DynamicPropertySource
    static void admissionPort(DynamicPropertyRegistry registry) {
        registry.add("quotient.admission.port", () -> ADMISSION_PORT);
    }

    @Test
    void servesTheIssuedCertificateToAClientThatTrustsItsCa() throws Exception {
        assertThat(tls.issued()).isPresent();
        List<X509Certificate> authorities = tls.issued().get().authorities();
        HttpClient trusting =
                HttpClient.newBuilder().sslContext(trusting(authorities)).build();

        for (String host : List.of("localhost", "127.0.0.1")) {
            HttpResponse<String> health = trusting.send(
                    HttpRequest.newBuilder(URI.create("https://" + host + ":" + ADMISSION_PORT + "/actuator/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(host).isEqualTo(200);
        }
        assertThat(tls.issued().get().certificate().getSubjectAlternativeNames())
                .extracting(name -> (Object) name.get(1))
                .contains("quotient", "localhost", "127.0.0.1", "quotient.example");
    }

    /**
     * The webhooks answer on the admission port only (here the embedded cluster's answer: no admission there); on the
     * API port, where the API server's missing token would be no exemption, they are paths no handler serves.
     */
    @Test
    void theWebhooksAreServedOnTheAdmissionPortAlone() throws Exception {
        HttpClient trusting = HttpClient.newBuilder()
                .sslContext(trusting(tls.issued().get().authorities()))
                .build();
        for (String path : List.of("/admission/gpujobs", "/admission/workloads/mutate")) {
            HttpResponse<String> admission = trusting.send(
                    review("https://localhost:" + ADMISSION_PORT + path), HttpResponse.BodyHandlers.ofString());
            assertThat(admission.body()).as(path).contains("no admission on the embedded cluster");
            HttpResponse<String> api = HttpClient.newHttpClient()
                    .send(review("http://localhost:" + apiPort + path), HttpResponse.BodyHandlers.ofString());
            assertThat(api.statusCode()).as(path).isEqualTo(404);
            assertThat(api.body()).as(path).contains("\"error\":\"not found\"").doesNotContain("admission");
        }
    }

    private static HttpRequest review(String uri) {
        return HttpRequest.newBuilder(URI.create(uri))
                .header("Content-Type", "application/json")
                .POST(
                        HttpRequest.BodyPublishers.ofString(
                                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}"))
                .build();
    }

    @Test
    void aClientThatDoesNotTrustTheIssuedCaIsRefused() {
        HttpClient defaultTrust = HttpClient.newHttpClient();
        assertThatThrownBy(() -> defaultTrust.send(
                        HttpRequest.newBuilder(URI.create("https://localhost:" + ADMISSION_PORT + "/actuator/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    private static SSLContext trusting(List<X509Certificate> authorities) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        for (int i = 0; i < authorities.size(); i++) {
            store.setCertificateEntry("ca-" + i, authorities.get(i));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

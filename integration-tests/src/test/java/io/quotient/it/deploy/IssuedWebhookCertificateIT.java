package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Secret;
import io.quotient.adapters.k8s.webhook.WebhookCertificateSecret;
import io.quotient.adapters.tls.CertificateIssuer;
import io.quotient.adapters.tls.ServingCertificate;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admission webhooks without cert-manager, on the real API server: the service issues its serving certificate
 * into a Secret, puts the CA into the caBundle of the shipped webhook configuration (registered as shipped, without
 * one), and the API server then calls the webhook over TLS verified with it; a bundle overwritten later is set again.
 * The Secret is shared: a second replica reads the same certificate, two replicas starting at once agree on one, and
 * a certificate that no longer fits is renewed with the old CA still trusted.
 */
@RealKubernetes
class IssuedWebhookCertificateIT {

    private static final String SECRET = "quotient-webhook-tls";
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);

    @Test
    void theServiceIssuesItsCertificateAndKeepsTheCaBundleSet(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("issued", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        CoreV1Api core = new CoreV1Api(user);
        BatchV1Api batch = new BatchV1Api(user);
        int port = freePort();
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-c")) {
            WorkloadWebhooks.optIn(user, team.name());
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-c\n" + "    guaranteedGpus: 8\n    namespaces: [" + team.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, port, null);
                    QuotientService quotient = QuotientService.inProcess(
                            plane,
                            service.name(),
                            teams,
                            "--quotient.admission.port=" + port,
                            "--quotient.admission.extra-subject-names=127.0.0.1",
                            "--quotient.admission.ca-bundle-check=1s")) {
                V1Secret secret =
                        core.readNamespacedSecret(SECRET, service.name()).execute();
                assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
                assertThat(secret.getData()).containsOnlyKeys("ca.crt", "tls.crt", "tls.key");
                assertThat(secret.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "quotient");
                byte[] ca = secret.getData().get("ca.crt");
                Await.until(
                        "the service to set the webhook's caBundle",
                        webhooks::mutatingCaBundle,
                        bundle -> Arrays.equals(bundle, ca));

                // the API server now reaches the webhook over TLS it verifies with that CA: the GPU Job is adopted
                assertThat(adoptedJob(batch, team.name(), "first").getMetadata().getLabels())
                        .containsEntry("quotient.io/adopted", "true");

                webhooks.replaceMutatingCaBundle(WebhookTls.make(dir).caBundle());
                Await.until(
                        "the service to set its CA again",
                        webhooks::mutatingCaBundle,
                        bundle -> Arrays.equals(bundle, ca));
                assertThat(adoptedJob(batch, team.name(), "second")
                                .getMetadata()
                                .getLabels())
                        .containsEntry("quotient.io/adopted", "true");

                // a second replica starting now reads the stored certificate instead of issuing one
                List<String> names = List.of("quotient." + service.name() + ".svc", "127.0.0.1");
                ServingCertificate second =
                        store(user, service.name(), SECRET).obtain(names, RENEW_BEFORE, mustNotIssue());
                assertThat(second.certificatePem().getBytes(StandardCharsets.US_ASCII))
                        .isEqualTo(secret.getData().get("tls.crt"));
            }
        }
    }

    @Test
    void replicasStartingTogetherShareOneCertificateAndARenewalKeepsTheOldCa(ApiClient client, TestNamespace service)
            throws Exception {
        List<String> names = List.of("quotient." + service.name() + ".svc");
        CompletableFuture<ServingCertificate> first = CompletableFuture.supplyAsync(
                () -> store(client, service.name(), "race-tls").obtain(names, RENEW_BEFORE, () -> issue(names)));
        CompletableFuture<ServingCertificate> second = CompletableFuture.supplyAsync(
                () -> store(client, service.name(), "race-tls").obtain(names, RENEW_BEFORE, () -> issue(names)));
        assertThat(first.get().certificatePem()).isEqualTo(second.get().certificatePem());
        String stored = new String(
                new CoreV1Api(client)
                        .readNamespacedSecret("race-tls", service.name())
                        .execute()
                        .getData()
                        .get("tls.crt"),
                StandardCharsets.US_ASCII);
        assertThat(stored).isEqualTo(first.get().certificatePem());

        // the Service was renamed: the stored certificate does not name it, so it is renewed in place
        List<String> renamed = List.of("gpu-quotas." + service.name() + ".svc");
        ServingCertificate renewed =
                store(client, service.name(), "race-tls").obtain(renamed, RENEW_BEFORE, () -> issue(renamed));
        assertThat(renewed.certificatePem()).isNotEqualTo(first.get().certificatePem());
        assertThat(renewed.authorities())
                .hasSize(2)
                .contains(first.get().authorities().get(0));
        assertThat(store(client, service.name(), "race-tls")
                        .obtain(renamed, RENEW_BEFORE, mustNotIssue())
                        .certificatePem())
                .isEqualTo(renewed.certificatePem());
    }

    private static V1Job adoptedJob(BatchV1Api batch, String namespace, String name) {
        return Await.until("the webhook to adopt GPU Job " + name, () -> {
            V1Job created = batch.createNamespacedJob(namespace, ForeignWorkloads.batchJob(namespace, name, 1, null))
                    .execute();
            if (created.getMetadata().getLabels() == null
                    || !created.getMetadata().getLabels().containsKey("quotient.io/adopted")) {
                // admitted before the API server loaded the new bundle (the configuration reloads asynchronously)
                batch.deleteNamespacedJob(name, namespace)
                        .propagationPolicy("Background")
                        .execute();
                return null;
            }
            return created;
        });
    }

    private static WebhookCertificateSecret store(ApiClient client, String namespace, String name) {
        return new WebhookCertificateSecret(client, namespace, name, Clock.systemUTC());
    }

    private static ServingCertificate issue(List<String> names) {
        return CertificateIssuer.standard()
                .issue("test-ca", names, Clock.systemUTC().instant());
    }

    private static Supplier<ServingCertificate> mustNotIssue() {
        return () -> {
            throw new AssertionError("a usable certificate is stored: nothing must be issued");
        };
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

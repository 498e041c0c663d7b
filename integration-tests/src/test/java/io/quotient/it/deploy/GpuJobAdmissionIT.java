package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GpuJob admission webhook on the real control plane: the API server refuses an invalid GpuJob with the REST
 * message (the service serving the webhook), and admits a valid one, which the service places.
 */
@RealKubernetes
class GpuJobAdmissionIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void anInvalidGpuJobIsRefusedByTheApiServerThroughTheAdmissionWebhook(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("admission", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        ApiClient admin = plane.apiClient();
        WebhookTls tls = WebhookTls.make(dir);
        AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(admin);
        try (TestNamespace team = TestNamespace.create(admin, plane.serverMinorVersion(), "team-w")) {
            // only this test's namespace: other tests' GpuJobs must not depend on this short-lived webhook
            CoreV1Api core = new CoreV1Api(admin);
            var labelled = core.readNamespace(team.name()).execute();
            labelled.getMetadata().putLabelsItem("quotient.io/admission-test", team.name());
            core.replaceNamespace(team.name(), labelled).execute();
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-w\n" + "    guaranteedGpus: 4\n    namespaces: [" + team.name() + "]\n");
            try (QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                admission
                        .createValidatingWebhookConfiguration(webhook(team.name(), tls.port(), tls.caBundle()))
                        .execute();
                DynamicKubernetesApi gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", admin);
                KubernetesApiResponse<DynamicKubernetesObject> refused = Await.until(
                        "the webhook to refuse",
                        () -> gpuJobs.create(GpuJobObjects.gpuJob(
                                team.name(),
                                "bad-limit",
                                "{\"gpu\": {\"fraction\": 0.5, \"fractionLimit\": 0.3}}",
                                null)),
                        response -> response.getHttpStatusCode() == 422 || deleted(gpuJobs, team.name()));
                assertThat(refused.getHttpStatusCode()).isEqualTo(422);
                assertThat(refused.getStatus().getMessage())
                        .contains(
                                "denied the request", "gpu.fractionLimit: (0.3) must not be below gpu.fraction (0.5)");
                assertThat(GpuJobObjects.gpuJobs(admin, team.name())).isEmpty();

                assertThat(gpuJobs.create(GpuJobObjects.gpuJob(
                                        team.name(),
                                        "good",
                                        "{\"image\": \"busybox:1.36\"," + " \"gpu\": {\"count\": 1}}",
                                        null))
                                .isSuccess())
                        .isTrue();
                Await.until(
                        "the admitted GpuJob to be placed",
                        () -> quotient.api().job("team-w", "good").text("phase"),
                        phase -> "Placed".equals(phase) || "Running".equals(phase));
            } finally {
                admission
                        .deleteValidatingWebhookConfiguration("gpujobs-" + team.name())
                        .execute();
            }
        }
    }

    /** Removes a GpuJob the webhook did not stop yet (the API server takes a moment to load the configuration). */
    private static boolean deleted(DynamicKubernetesApi gpuJobs, String namespace) {
        gpuJobs.delete(namespace, "bad-limit");
        return false;
    }

    private static V1ValidatingWebhookConfiguration webhook(String namespace, int port, byte[] caBundle) {
        return new V1ValidatingWebhookConfiguration()
                .metadata(new V1ObjectMeta().name("gpujobs-" + namespace))
                .webhooks(List.of(new V1ValidatingWebhook()
                        .name("gpujobs.quotient.io")
                        .clientConfig(new AdmissionregistrationV1WebhookClientConfig()
                                .url("https://127.0.0.1:" + port + "/admission/gpujobs")
                                .caBundle(caBundle))
                        .rules(List.of(new V1RuleWithOperations()
                                .apiGroups(List.of("quotient.io"))
                                .apiVersions(List.of("v1alpha1"))
                                .resources(List.of("gpujobs"))
                                .operations(List.of("CREATE"))))
                        .namespaceSelector(
                                new V1LabelSelector().matchLabels(Map.of("quotient.io/admission-test", namespace)))
                        .objectSelector(new V1LabelSelector()
                                .matchExpressions(List.of(new V1LabelSelectorRequirement()
                                        .key("app.kubernetes.io/managed-by")
                                        .operator("NotIn")
                                        .values(List.of("quotient")))))
                        .failurePolicy("Fail")
                        .sideEffects("None")
                        .admissionReviewVersions(List.of("v1"))
                        .timeoutSeconds(5)));
    }
}

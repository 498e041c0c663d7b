package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.V1Job;
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
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads created with kubectl (issue 12): the shipped workload webhooks, served by the service on its admission
 * port, suspend and label a PyTorchJob, TrainJob or batch Job that asks for GPUs in an opted-in team namespace,
 * refuse invalid GPU annotations with the field, and leave workloads without GPUs untouched; with the service down,
 * kube-system and namespaces that did not opt in are never blocked. Adopted gangs run in {@link AdoptedGangIT}, an
 * adopted fraction in {@link AdoptedFractionIT}.
 */
@RealKubernetes
class AdoptionIT {

    @Test
    void gpuWorkloadsCreatedWithKubectlAreSuspendedAndTheRestIsUntouched(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("adopt", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        AdoptionPlane adoption = AdoptionPlane.prepare(plane, dir);
        ApiClient user = adoption.user;
        KubeflowCrds.install(user);
        WebhookTls tls = adoption.tls;
        BatchV1Api batch = new BatchV1Api(user);
        DynamicKubernetesApi pytorchJobs = adoption.pytorchJobs;
        DynamicKubernetesApi trainJobs = adoption.trainJobs;
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-k");
                TestNamespace other = TestNamespace.create(user, plane.serverMinorVersion(), "other")) {
            WorkloadWebhooks.optIn(user, team.name());
            // the service stops before the webhooks go, to show what is admitted while it is down: not serve()
            Path teams = adoption.teams(
                    "teams:\n  - name: team-k\n" + "    guaranteedGpus: 32\n    namespaces: [" + team.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle())) {
                try (QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                    // the API server loads a new webhook configuration a moment after it is created
                    JsonObject llm = Await.until(
                            "the webhook to suspend a 4 x 8-GPU PyTorchJob",
                            () -> AdoptedWorkloads.recreate(
                                    pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 4, 8)),
                            stored -> AdoptedWorkloads.adopted(stored));
                    assertThat(llm.getAsJsonObject("spec")
                                    .getAsJsonObject("runPolicy")
                                    .get("suspend")
                                    .getAsBoolean())
                            .isTrue();

                    // a user may not start it past Quotient: it waits for 4 nodes, the plane has 1
                    KubernetesApiResponse<DynamicKubernetesObject> unsuspended = pytorchJobs.patch(
                            team.name(),
                            "llm",
                            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                            new V1Patch(unsuspend().toString()));
                    assertThat(unsuspended.getHttpStatusCode()).isEqualTo(422);
                    assertThat(unsuspended.getStatus().getMessage())
                            .contains("spec.runPolicy.suspend: Quotient"
                                    + " unsuspends this PyTorchJob when it places it");

                    JsonObject trainJob = AdoptedWorkloads.created(trainJobs.create(new DynamicKubernetesObject(
                            ForeignWorkloads.trainJob(team.name(), "tj", "torch-distributed", 2, 8))));
                    assertThat(AdoptedWorkloads.adopted(trainJob)).isTrue();
                    assertThat(trainJob.getAsJsonObject("spec").get("suspend").getAsBoolean())
                            .isTrue();

                    V1Job gpuJob = batch.createNamespacedJob(
                                    team.name(), ForeignWorkloads.batchJob(team.name(), "ingest", 1, null))
                            .execute();
                    assertThat(gpuJob.getMetadata().getLabels()).containsEntry(AdoptedWorkloads.ADOPTED, "true");
                    if (plane.serverMinorVersion() >= 21) { // 1.20 has no Job suspend: the API server drops the field
                        assertThat(gpuJob.getSpec().getSuspend()).isTrue();
                    }

                    V1Job cpuJob = batch.createNamespacedJob(
                                    team.name(), ForeignWorkloads.batchJob(team.name(), "cpu-only", 0, null))
                            .execute();
                    assertThat(cpuJob.getMetadata().getLabels()).doesNotContainKey(AdoptedWorkloads.ADOPTED);
                    assertThat(cpuJob.getSpec().getSuspend()).isNotEqualTo(Boolean.TRUE);

                    ApiException refused = catchThrowableOfType(
                            () -> batch.createNamespacedJob(
                                            team.name(),
                                            ForeignWorkloads.batchJob(
                                                    team.name(),
                                                    "bad",
                                                    0,
                                                    Map.of("gpu-fraction", "0.5", "gpu-fraction-limit", "0.3")))
                                    .execute(),
                            ApiException.class);
                    assertThat(refused.getCode()).isEqualTo(422);
                    assertThat(refused.getResponseBody())
                            .contains(
                                    "denied the request",
                                    "spec.template.metadata.annotations[gpu-fraction-limit]: (0.3) must not be below"
                                            + " gpu-fraction (0.5)");

                    V1Job elsewhere = batch.createNamespacedJob(
                                    other.name(), ForeignWorkloads.batchJob(other.name(), "elsewhere", 1, null))
                            .execute();
                    assertThat(elsewhere.getMetadata().getLabels()).doesNotContainKey(AdoptedWorkloads.ADOPTED);
                }
                // the service is down; the webhooks stay registered with failurePolicy Fail
                V1Job system = batch.createNamespacedJob(
                                "kube-system",
                                ForeignWorkloads.batchJob("kube-system", "untouched-" + team.name(), 1, null))
                        .execute();
                try {
                    assertThat(system.getMetadata().getLabels()).doesNotContainKey(AdoptedWorkloads.ADOPTED);
                    assertThat(batch.createNamespacedJob(
                                            other.name(),
                                            ForeignWorkloads.batchJob(other.name(), "while-down", 1, null))
                                    .execute()
                                    .getMetadata()
                                    .getLabels())
                            .doesNotContainKey(AdoptedWorkloads.ADOPTED);
                    ApiException blocked = catchThrowableOfType(
                            () -> batch.createNamespacedJob(
                                            team.name(),
                                            ForeignWorkloads.batchJob(team.name(), "gpu-while-down", 1, null))
                                    .execute(),
                            ApiException.class);
                    assertThat(blocked)
                            .as("a GPU workload in an opted-in namespace is never admitted unsuspended")
                            .isNotNull();
                    assertThat(blocked.getResponseBody()).contains("workloads.quotient.io");
                } finally {
                    batch.deleteNamespacedJob(system.getMetadata().getName(), "kube-system")
                            .propagationPolicy("Background")
                            .execute();
                }
            }
        }
    }

    private static JsonObject unsuspend() {
        JsonObject runPolicy = new JsonObject();
        runPolicy.addProperty("suspend", false);
        JsonObject spec = new JsonObject();
        spec.add("runPolicy", runPolicy);
        JsonObject patch = new JsonObject();
        patch.add("spec", spec);
        return patch;
    }
}

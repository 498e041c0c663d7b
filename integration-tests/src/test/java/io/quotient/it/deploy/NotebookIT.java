package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeNotebookController;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notebooks created as a Kubeflow user creates them (issue 12): the fake notebook controller turns each Notebook into a
 * StatefulSet, the real StatefulSet controller creates pod {@code <name>-0}, and the shipped pod webhook admits it
 * pinned to its job's placement (two {@code gpu-fraction: "0.5"} notebooks on one GPU held by a reservation pod, a
 * whole-GPU notebook), or refuses it with its job's reason while the team is at its guarantee; stopping a notebook
 * (its StatefulSet scaled to 0) ends its job, and the waiting notebook is admitted and runs. Pods without GPUs and pods
 * in kube-system are never held, even with the service down.
 */
@RealKubernetes
class NotebookIT {

    @Test
    void notebookPodsArePinnedAtAdmissionOrHeldWithTheirReason(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("nb", 2, 81920, "NVIDIA-A100-SXM4-80GB"));
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        KubeflowCrds.install(user);
        WebhookTls tls = WebhookTls.make(dir);
        CoreV1Api core = new CoreV1Api(user);
        DynamicKubernetesApi notebooks = new DynamicKubernetesApi("kubeflow.org", "v1", "notebooks", user);
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-n");
                FakeNotebookController controller = FakeNotebookController.start(user, team.name())) {
            WorkloadWebhooks.optIn(user, team.name());
            String ns = team.name();
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-n\n" + "    guaranteedGpus: 2\n    namespaces: [" + ns + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle())) {
                try (QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                    QuotientApi api = quotient.api();
                    Notebooks.awaitPodWebhook(core, ns);

                    Notebooks.create(
                            notebooks,
                            ForeignWorkloads.notebook(
                                    ns, "nb1", Map.of("gpu-fraction", "0.5"), Notebooks.json(Notebooks.container(0))));
                    Notebooks.create(
                            notebooks,
                            ForeignWorkloads.notebook(
                                    ns, "nb2", Map.of("gpu-fraction", "0.5"), Notebooks.json(Notebooks.container(0))));
                    V1Pod first = Notebooks.awaitRunning(core, ns, "nb1-0");
                    V1Pod second = Notebooks.awaitRunning(core, ns, "nb2-0");
                    ClusterFacts cluster = new ClusterFacts(user, service.name());
                    V1Pod reservation = Await.until(
                                    "one reservation pod holding the shared GPU",
                                    cluster::reservationPods,
                                    pods -> pods.size() == 1)
                            .get(0);
                    String uuid = reservation.getMetadata().getAnnotations().get("quotient.io/gpu-uuid");
                    for (V1Pod pod : List.of(first, second)) {
                        assertThat(pod.getSpec().getNodeName())
                                .as("bound by the kube-scheduler to the chosen node")
                                .isEqualTo(node.name());
                        assertThat(pod.getMetadata().getLabels())
                                .containsEntry("quotient.io/team", "team-n")
                                .containsEntry(
                                        "notebook-name",
                                        pod.getMetadata().getName().replace("-0", ""));
                        assertThat(env(pod, "NVIDIA_VISIBLE_DEVICES"))
                                .as("both share the reserved GPU")
                                .isEqualTo(uuid);
                        assertThat(env(pod, "GPU_MEMORY_LIMIT")).isEqualTo(Long.toString(81920L * 1024 * 1024 / 2));
                        assertThat(gpuLimit(pod))
                                .as("the reservation pod holds the GPU")
                                .isNull();
                        assertThat(pod.getSpec()
                                        .getAffinity()
                                        .getNodeAffinity()
                                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                                        .getNodeSelectorTerms()
                                        .get(0)
                                        .getMatchExpressions()
                                        .get(0)
                                        .getValues())
                                .containsExactly(node.name());
                    }
                    assertThat(api.job("team-n", "nb1-0").text("phase")).isIn("Placed", "Running");

                    Notebooks.create(
                            notebooks,
                            ForeignWorkloads.notebook(ns, "whole", Map.of(), Notebooks.json(Notebooks.container(1))));
                    V1Pod whole = Notebooks.awaitRunning(core, ns, "whole-0");
                    assertThat(whole.getSpec().getNodeName()).isEqualTo(node.name());
                    assertThat(gpuLimit(whole)).isEqualTo("1");

                    // team-n holds its guarantee of 2 GPUs: a notebook may not borrow, so the next one waits
                    Notebooks.create(
                            notebooks,
                            ForeignWorkloads.notebook(ns, "late", Map.of(), Notebooks.json(Notebooks.container(1))));
                    QuotientApi.Answer waiting = Await.until(
                            "the late notebook's job to wait with a reason",
                            () -> api.job("team-n", "late-0"),
                            job -> job.status() == 200
                                    && "Pending".equals(job.text("phase"))
                                    && job.text("reason") != null
                                    && !job.text("reason").startsWith("recorded;")); // decided, not just recorded
                    String reason = waiting.text("reason");
                    CoreV1Event refused = Await.until(
                                    "the StatefulSet to report the refused create",
                                    () -> failedCreate(core, ns, "late"),
                                    Optional::isPresent)
                            .get();
                    assertThat(refused.getMessage())
                            .contains("denied the request: notebook pod late-0 of team team-n" + " waits: " + reason
                                    + "; the StatefulSet controller retries");
                    assertThat(Notebooks.pod(core, ns, "late-0"))
                            .as("never admitted unpinned")
                            .isEmpty();

                    // the whole-GPU notebook is stopped (scaled to 0): its job ends and the late one is admitted
                    stop(notebooks, ns, "whole");
                    Await.until(
                            "the stopped notebook's pod to go",
                            () -> Notebooks.pod(core, ns, "whole-0"),
                            Optional::isEmpty);
                    Await.until(
                            "the stopped notebook's job to end",
                            () -> api.job("team-n", "whole-0").status(),
                            status -> status == 404);
                    V1Pod late = Notebooks.awaitRunning(core, ns, "late-0");
                    assertThat(late.getSpec().getNodeName()).isEqualTo(node.name());
                    assertThat(api.job("team-n", "late-0").text("phase")).isIn("Placed", "Running");

                    V1Pod cpu = core.createNamespacedPod(ns, Notebooks.barePod("cpu", 0))
                            .execute();
                    assertThat(labels(cpu))
                            .as("a pod without GPUs is untouched")
                            .doesNotContainKey("quotient.io/job");
                    assertThat(cpu.getSpec().getAffinity()).isNull();
                    core.deleteNamespacedPod("cpu", ns).gracePeriodSeconds(0).execute();
                }
                // the service is down; the webhooks stay registered with failurePolicy Fail
                V1Pod system = core.createNamespacedPod("kube-system", Notebooks.barePod("untouched-" + team.name(), 1))
                        .execute();
                try {
                    assertThat(labels(system)).doesNotContainKey("quotient.io/job");
                    assertThat(system.getSpec().getAffinity()).isNull();
                    ApiException blocked = catchThrowableOfType(
                            () -> core.createNamespacedPod(team.name(), Notebooks.barePod("gpu-while-down", 1))
                                    .execute(),
                            ApiException.class);
                    assertThat(blocked)
                            .as("a GPU pod in an opted-in namespace is never admitted unpinned")
                            .isNotNull();
                    assertThat(blocked.getResponseBody()).contains("pods.quotient.io");
                } finally {
                    core.deleteNamespacedPod(system.getMetadata().getName(), "kube-system")
                            .gracePeriodSeconds(0)
                            .execute();
                }
            }
            assertThat(controller.lastFailure()).isNull();
        }
    }

    private static void stop(DynamicKubernetesApi notebooks, String namespace, String name) {
        JsonObject annotations = new JsonObject();
        annotations.addProperty(FakeNotebookController.STOPPED_ANNOTATION, "2026-01-01T00:00:00Z");
        JsonObject metadata = new JsonObject();
        metadata.add("annotations", annotations);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        assertThat(notebooks
                        .patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch(patch.toString()))
                        .isSuccess())
                .isTrue();
    }

    private static Optional<CoreV1Event> failedCreate(CoreV1Api core, String namespace, String statefulSet)
            throws ApiException {
        return core.listNamespacedEvent(namespace).execute().getItems().stream()
                .filter(e -> "FailedCreate".equals(e.getReason())
                        && statefulSet.equals(e.getInvolvedObject().getName())
                        && e.getMessage() != null
                        && e.getMessage().contains("waits:"))
                .findFirst();
    }

    private static Map<String, String> labels(V1Pod pod) {
        return pod.getMetadata().getLabels() == null
                ? Map.of()
                : pod.getMetadata().getLabels();
    }

    private static String env(V1Pod pod, String name) {
        List<V1EnvVar> env = pod.getSpec().getContainers().get(0).getEnv();
        return env == null
                ? null
                : env.stream()
                        .filter(e -> name.equals(e.getName()))
                        .map(V1EnvVar::getValue)
                        .findFirst()
                        .orElse(null);
    }

    private static String gpuLimit(V1Pod pod) {
        V1ResourceRequirements resources = pod.getSpec().getContainers().get(0).getResources();
        Quantity limit = resources == null || resources.getLimits() == null
                ? null
                : resources.getLimits().get("nvidia.com/gpu");
        return limit == null ? null : limit.toSuffixedString();
    }
}

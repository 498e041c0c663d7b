package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeTrainingOperator;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An adopted PyTorchJob asking for half a GPU: its pod template reads the reserved GPU's UUID from annotations, and
 * its Master pod runs on the reserved GPU's node without asking for {@code nvidia.com/gpu}.
 */
@RealKubernetes
class AdoptedFractionIT {

    @Test
    void aPyTorchJobAskingForHalfAGpuIsBoundToItsReservedGpuThroughItsPodTemplate(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("adopt-share", 2, 81920, "NVIDIA-A100-SXM4-80GB"));
        AdoptionPlane adoption = AdoptionPlane.prepare(plane, dir);
        ApiClient user = adoption.user;
        KubeflowCrds.install(user);
        DynamicKubernetesApi pytorchJobs = adoption.pytorchJobs;
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-s");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            try (AdoptionPlane.Serving serving = adoption.serve(
                    service,
                    team,
                    "teams:\n  - name: team-s\n" + "    guaranteedGpus: 2\n    namespaces: [" + team.name() + "]\n")) {
                QuotientService quotient = serving.quotient();
                JsonObject half = Await.until(
                        "the webhook to suspend a PyTorchJob asking for half a GPU",
                        () -> AdoptedWorkloads.recreate(
                                pytorchJobs, ForeignWorkloads.sharedPyTorchJob(team.name(), "half", "0.5")),
                        AdoptedWorkloads::adopted);
                JsonObject container = half.getAsJsonObject("spec")
                        .getAsJsonObject("pytorchReplicaSpecs")
                        .getAsJsonObject("Master")
                        .getAsJsonObject("template")
                        .getAsJsonObject("spec")
                        .getAsJsonArray("containers")
                        .get(0)
                        .getAsJsonObject();
                assertThat(container.getAsJsonArray("env").toString())
                        .as("the GPU env, read from annotations")
                        .contains("metadata.annotations['quotient.io/env.NVIDIA_VISIBLE_DEVICES']");

                QuotientApi api = quotient.api();
                QuotientApi.Answer placed = Await.until(
                        "the share to be placed on a reserved GPU",
                        () -> api.job("team-s", "half"),
                        job -> job.status() == 200
                                && job.object().getAsJsonArray("gpus").size() == 1
                                && !job.object()
                                        .getAsJsonArray("gpus")
                                        .get(0)
                                        .getAsJsonObject()
                                        .get("uuid")
                                        .isJsonNull());
                String uuid = placed.object()
                        .getAsJsonArray("gpus")
                        .get(0)
                        .getAsJsonObject()
                        .get("uuid")
                        .getAsString();
                assertThat(node.gpuUuids()).contains(uuid);
                assertThat(new ClusterFacts(user, service.name()).reservationPods())
                        .singleElement()
                        .satisfies(pod -> assertThat(pod.getMetadata().getAnnotations())
                                .containsEntry("quotient.io/gpu-uuid", uuid));

                V1Pod pod = Await.until(
                                "the Master pod to run",
                                () -> AdoptedWorkloads.pods(user, team.name(), "half"),
                                pods -> pods.size() == 1
                                        && "Running"
                                                .equals(pods.get(0).getStatus().getPhase()))
                        .get(0);
                assertThat(pod.getSpec().getNodeName()).isEqualTo(node.name());
                assertThat(pod.getMetadata().getAnnotations())
                        .containsEntry("quotient.io/env.NVIDIA_VISIBLE_DEVICES", uuid)
                        .containsEntry("quotient.io/env.GPU_MEMORY_REQUEST", Long.toString(81920L * 1024 * 1024 / 2))
                        .containsEntry("gpu-fraction", "0.5");
                var resources = pod.getSpec().getContainers().get(0).getResources();
                assertThat(resources == null
                                || resources.getLimits() == null
                                || !resources.getLimits().containsKey("nvidia.com/gpu"))
                        .as("no nvidia.com/gpu (%s): the reservation pod holds the GPU", resources)
                        .isTrue();
                assertThat(operator.lastFailure()).isNull();
            }
        }
    }
}

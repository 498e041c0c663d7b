package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Fractional GPUs: reservation pods hold whole GPUs, fractions bind to the UUID the enforcer reports on them. */
@RealKubernetes
class FractionsIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void threeFractionsShareOneReservedGpuAFourthTakesAnotherAndDeletingThemFreesBoth(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("frac", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(dir.resolve("teams.yaml"), new TeamsFile.Quota("team-a", 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            for (String name : List.of("f1", "f2", "f3")) {
                assertThat(api.deploy("team-a", Requests.fraction(name, 0.3)).status()).isEqualTo(201);
            }
            String shared = awaitUuid(api, "f1");
            assertThat(awaitUuid(api, "f2")).isEqualTo(shared);
            assertThat(awaitUuid(api, "f3")).isEqualTo(shared);
            assertThat(node.gpuUuids()).contains(shared);
            List<V1Pod> reservations = cluster.reservationPods();
            assertThat(reservations).singleElement().satisfies(pod -> {
                assertThat(pod.getMetadata().getAnnotations()).containsEntry("quotient.io/gpu-uuid", shared);
                assertThat(pod.getSpec().getNodeName()).isEqualTo(node.name());
            });
            for (String name : List.of("f1", "f2", "f3")) {
                V1Pod pod = cluster.awaitRunningPod("team-a", name);
                assertThat(env(pod, "NVIDIA_VISIBLE_DEVICES")).isEqualTo(shared);
                assertThat(env(pod, "GPU_MEMORY_REQUEST")).isEqualTo(Long.toString(81920L * 1024 * 1024 * 3 / 10));
                assertThat(pod.getMetadata().getAnnotations()).containsEntry("gpu-fraction", "0.3");
            }

            assertThat(api.deploy("team-a", Requests.fraction("f4", 0.3)).status()).isEqualTo(201);
            String other = awaitUuid(api, "f4");
            assertThat(other).isNotEqualTo(shared);
            assertThat(node.gpuUuids()).contains(other);
            assertThat(cluster.reservationPods()).hasSize(2);
            assertThat(env(cluster.awaitRunningPod("team-a", "f4"), "NVIDIA_VISIBLE_DEVICES")).isEqualTo(other);

            for (String name : List.of("f1", "f2", "f3", "f4")) {
                assertThat(api.delete("team-a", name).status()).isBetween(200, 204);
            }
            Await.until("the reservation pods to go with the last fractions", cluster::reservationPods, List::isEmpty);
            assertThat(cluster.gpuJobs()).isEmpty();
        }
    }

    private static String awaitUuid(QuotientApi api, String job) {
        QuotientApi.Answer placed = Await.until("job " + job + " to be bound to a GPU UUID", () -> api.job("team-a", job),
                answer -> answer.object().getAsJsonArray("gpus").size() == 1
                        && !answer.object().getAsJsonArray("gpus").get(0).getAsJsonObject().get("uuid").isJsonNull());
        return placed.object().getAsJsonArray("gpus").get(0).getAsJsonObject().get("uuid").getAsString();
    }

    private static String env(V1Pod pod, String name) {
        return pod.getSpec().getContainers().get(0).getEnv().stream().filter(e -> name.equals(e.getName()))
                .map(V1EnvVar::getValue).findFirst().orElse(null);
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        // a node whose enforcer reports not ready: whole GPUs may go there, fractions must not
        FakeGpuNode unready = nodes.create(FakeGpuNodeSpec.of("frac-unready", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        reportNotReady(plane.apiClient(), unready.name());
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 8, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            for (String name : List.of("f1", "f2", "f3")) {
                assertThat(api.deploy("team-a", Requests.fraction(name, 0.3)).status())
                        .isEqualTo(201);
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

            // a reservation pod deleted by hand while fractions use its GPU is made again (next reconciliation)
            V1Pod original = reservations.get(0);
            new CoreV1Api(plane.apiClient())
                    .deleteNamespacedPod(original.getMetadata().getName(), namespace.name())
                    .execute();
            V1Pod remade = Await.until(
                    "the reservation pod to be made again",
                    () -> cluster.reservationPods().stream()
                            .filter(p -> !p.getMetadata()
                                    .getUid()
                                    .equals(original.getMetadata().getUid()))
                            .filter(p -> p.getMetadata().getAnnotations() != null
                                    && p.getMetadata().getAnnotations().containsKey("quotient.io/gpu-uuid"))
                            .findFirst()
                            .orElse(null));
            assertThat(remade.getMetadata().getName())
                    .isEqualTo(original.getMetadata().getName());
            assertThat(remade.getMetadata().getAnnotations()).containsEntry("quotient.io/gpu-uuid", shared);

            assertThat(api.deploy("team-a", Requests.fraction("f4", 0.3)).status())
                    .isEqualTo(201);
            String other = awaitUuid(api, "f4");
            assertThat(other).isNotEqualTo(shared);
            assertThat(node.gpuUuids()).contains(other);
            assertThat(cluster.reservationPods()).hasSize(2);
            assertThat(env(cluster.awaitRunningPod("team-a", "f4"), "NVIDIA_VISIBLE_DEVICES"))
                    .isEqualTo(other);

            // a multi-GPU fraction holds one reservation per GPU and sees both UUIDs
            assertThat(api.deploy("team-a", Requests.with(Requests.fraction("fm", 0.5), "gpuDevices", 2))
                            .status())
                    .isEqualTo(201);
            QuotientApi.Answer multi = Await.until(
                    "job fm to be bound to two GPU UUIDs",
                    () -> api.job("team-a", "fm"),
                    answer -> uuids(answer).size() == 2 && !uuids(answer).contains(null));
            assertThat(multi.text("node")).isEqualTo(node.name());
            assertThat(node.gpuUuids()).containsAll(uuids(multi));
            assertThat(env(cluster.awaitRunningPod("team-a", "fm"), "NVIDIA_VISIBLE_DEVICES"))
                    .isEqualTo(String.join(",", uuids(multi)));
            List<String> fractionGpus = new ArrayList<>(List.of(shared, other));
            fractionGpus.addAll(uuids(multi));
            assertThat(cluster.reservationPods())
                    .extracting(p -> p.getMetadata().getAnnotations().get("quotient.io/gpu-uuid"))
                    .containsExactlyInAnyOrderElementsOf(new TreeSet<>(fractionGpus));
            for (String name : List.of("f1", "f2", "f3", "f4", "fm")) {
                assertThat(api.job("team-a", name).text("node"))
                        .as("fractions avoid the node whose enforcer is not" + " ready")
                        .isEqualTo(node.name());
            }

            for (String name : List.of("f1", "f2", "f3", "f4", "fm")) {
                assertThat(api.delete("team-a", name).status()).isBetween(200, 204);
            }
            Await.until("the reservation pods to go with the last fractions", cluster::reservationPods, List::isEmpty);
            assertThat(cluster.gpuJobs()).isEmpty();
        }
    }

    private static String awaitUuid(QuotientApi api, String job) {
        QuotientApi.Answer placed = Await.until(
                "job " + job + " to be bound to a GPU UUID",
                () -> api.job("team-a", job),
                answer -> answer.object().getAsJsonArray("gpus").size() == 1
                        && !answer.object()
                                .getAsJsonArray("gpus")
                                .get(0)
                                .getAsJsonObject()
                                .get("uuid")
                                .isJsonNull());
        return placed.object()
                .getAsJsonArray("gpus")
                .get(0)
                .getAsJsonObject()
                .get("uuid")
                .getAsString();
    }

    private static List<String> uuids(QuotientApi.Answer job) {
        List<String> uuids = new ArrayList<>();
        job.object()
                .getAsJsonArray("gpus")
                .forEach(g -> uuids.add(
                        g.getAsJsonObject().get("uuid").isJsonNull()
                                ? null
                                : g.getAsJsonObject().get("uuid").getAsString()));
        return uuids;
    }

    /** Rewrites the node's GPU report as its enforcer would when NVML fails (the fake kubelet keeps it fresh). */
    private static void reportNotReady(ApiClient client, String nodeName) {
        NodeReports.edit(client, nodeName, "marking the enforcer of " + nodeName + " not ready", report -> {
            report.addProperty("ready", false);
            report.addProperty("reason", "NVML could not be initialised (test)");
        });
    }

    private static String env(V1Pod pod, String name) {
        return pod.getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> name.equals(e.getName()))
                .map(V1EnvVar::getValue)
                .findFirst()
                .orElse(null);
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A busy node is deleted from the cluster: the leader re-queues the jobs it held — each says why (an Event and its
 * reason) — stops their workloads, releases the reservation of the fraction that ran there, and places them on the
 * nodes left, where kube-scheduler binds their new pods.
 */
@RealKubernetes
class RemovedNodeIT {

    private static final List<String> JOBS = List.of("half", "one", "two");

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void theJobsOfARemovedNodeAreRequeuedAndPlacedOnTheNodesLeft(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.create(FakeGpuNodeSpec.of("removed", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        }
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 6, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            assertThat(api.deploy("team-a", Requests.fraction("half", 0.5)).status())
                    .isEqualTo(201);
            assertThat(api.deploy("team-a", Requests.wholeGpus("one", 1)).status())
                    .isEqualTo(201);
            assertThat(api.deploy("team-a", Requests.wholeGpus("two", 2)).status())
                    .isEqualTo(201);
            for (String job : JOBS) {
                cluster.awaitRunningPod("team-a", job);
            }
            String lost = api.job("team-a", "half").text("node");
            List<String> onLost = JOBS.stream()
                    .filter(job -> lost.equals(api.job("team-a", job).text("node")))
                    .toList();
            assertThat(cluster.reservationPods())
                    .anyMatch(p -> lost.equals(p.getSpec().getNodeName()));

            nodes.delete(lost);

            for (String job : onLost) {
                String moved = Await.until("job " + job + " re-placed on a node left", () -> {
                    QuotientApi.Answer answer = api.job("team-a", job);
                    String node = answer.text("node");
                    return node != null
                                    && !node.equals(lost)
                                    && List.of("Placed", "Running").contains(answer.text("phase"))
                            ? node
                            : null;
                });
                Await.until(
                        "a running pod of " + job + " on " + moved,
                        () -> cluster.livePodsOf("team-a", job).stream()
                                .filter(p -> moved.equals(p.getSpec().getNodeName())
                                        && "Running".equals(p.getStatus().getPhase()))
                                .findFirst()
                                .orElse(null));
                CoreV1Event event = Await.until(
                        "a NodeRemoved event on " + job,
                        () -> nodeRemovedEvent(plane.apiClient(), namespace.name(), "team-a." + job));
                assertThat(event.getMessage()).contains("node " + lost + " was removed from the cluster; re-queued");
            }
            Await.until(
                    "no reservation pod left on " + lost,
                    () -> cluster.reservationPods().stream()
                            .noneMatch(p -> lost.equals(p.getSpec().getNodeName())),
                    gone -> gone);
            for (String job : JOBS) {
                if (!onLost.contains(job)) {
                    assertThat(api.job("team-a", job).text("phase"))
                            .as("%s was not on %s", job, lost)
                            .isEqualTo("Running");
                }
            }
        }
    }

    private static CoreV1Event nodeRemovedEvent(ApiClient client, String namespace, String object) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedEvent(namespace).execute().getItems().stream()
                        .filter(e -> "NodeRemoved".equals(e.getReason())
                                && object.equals(e.getInvolvedObject().getName()))
                        .findFirst()
                        .orElse(null);
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defragmentation by the scheduled job: two nodes each left half full by deletions (no node free for a 4-GPU job)
 * are consolidated by moving preemptible jobs, so that a whole node frees up; the non-preemptible job stays where it
 * runs, and no job is lost.
 */
@RealKubernetes
class DefragmentIT {

    private static final int GPUS_PER_NODE = 4;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void theScheduledDefragmentationFreesAWholeNodeByMovingOnlyPreemptibleJobs(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        List<String> nodeNames = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            FakeGpuNode node =
                    nodes.create(FakeGpuNodeSpec.of("defrag", GPUS_PER_NODE, 81920, "NVIDIA-H100-80GB-HBM3"));
            nodeNames.add(node.name());
        }
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 8, null),
                new TeamsFile.Quota("team-b", 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        // defragment every 3 s, and allow moving half the cluster per run (two of eight GPUs are needed here)
        try (QuotientService service = QuotientService.inProcess(
                plane,
                namespace.name(),
                teams,
                "--quotient.schedules.defragment-cron=0/3 * * * * ?",
                "--quotient.schedules.defragment-max-moved-share=0.5")) {
            QuotientApi api = service.api();
            // the notebook-like job that must never move; wherever it lands is the node that will keep work
            assertThat(api.deploy("team-a", Requests.with(Requests.wholeGpus("pinned", 1), "preemptible", false))
                            .status())
                    .isEqualTo(201);
            for (int i = 1; i <= 2 * GPUS_PER_NODE - 1; i++) {
                assertThat(api.deploy("team-a", Requests.wholeGpus("j" + i, 1)).status())
                        .isEqualTo(201);
            }
            String pinnedUid =
                    cluster.awaitRunningPod("team-a", "pinned").getMetadata().getUid();
            String keeper = api.job("team-a", "pinned").text("node");
            Map<String, List<String>> byNode = jobsByNode(api, 2 * GPUS_PER_NODE - 1);
            assertThat(byNode.keySet()).containsExactlyInAnyOrderElementsOf(nodeNames);

            // delete two preemptible jobs on each node: 2 + 2 GPUs free, but no node can take a 4-GPU job
            Set<String> kept = new TreeSet<>();
            for (String node : nodeNames) {
                List<String> jobs = byNode.get(node);
                for (int i = 0; i < 2; i++) {
                    assertThat(api.delete("team-a", jobs.get(i)).status()).isBetween(200, 204);
                }
                kept.addAll(jobs.subList(2, jobs.size()));
            }
            String emptied = nodeNames.get(0).equals(keeper) ? nodeNames.get(1) : nodeNames.get(0);

            Await.until(
                    "the defragmentation to free node " + emptied,
                    Duration.ofSeconds(90),
                    () -> jobsOn(api, emptied, kept),
                    List::isEmpty);
            ClusterInvariants.awaitConsistent(cluster, Duration.ofSeconds(60));
            for (String job : kept) {
                assertThat(api.job("team-a", job).text("node"))
                        .as("job %s after defragmentation", job)
                        .isEqualTo(keeper);
                assertThat(cluster.livePodsOf("team-a", job))
                        .as("job %s runs", job)
                        .hasSize(1);
            }
            assertThat(cluster.gpuJobs()).as("no job lost").hasSize(kept.size() + 1);
            assertThat(cluster.awaitRunningPod("team-a", "pinned").getMetadata().getUid())
                    .as("the non-preemptible job was not moved")
                    .isEqualTo(pinnedUid);
            Set<String> moved = movedJobs(plane.apiClient(), namespace.name());
            assertThat(moved).as("Moved events").hasSize(2).doesNotContain("team-a.pinned");
            PrometheusSamples metrics = new PrometheusSamples(api.prometheus());
            assertThat(metrics.value("quotient_preemptions_total", Map.of("team", "team-a", "cause", "defragment")))
                    .isEqualTo(2);

            // the freed node now takes a job that needs all its GPUs, bound there by kube-scheduler
            QuotientApi.Answer big = api.deploy("team-b", Requests.wholeGpus("big", GPUS_PER_NODE));
            assertThat(big.status()).as("%s", big).isEqualTo(201);
            assertThat(cluster.boundNode("team-b", "big")).isEqualTo(emptied);
        }
    }

    /** The nodes of jobs j1..j{@code expected}, each with its jobs in name order. */
    private static Map<String, List<String>> jobsByNode(QuotientApi api, int expected) {
        Map<String, List<String>> byNode = new TreeMap<>();
        for (int i = 1; i <= expected; i++) {
            String job = "j" + i;
            String node = Await.until(
                    "job " + job + " to be placed", () -> api.job("team-a", job).text("node"));
            byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(job);
        }
        return byNode;
    }

    private static List<String> jobsOn(QuotientApi api, String node, Set<String> jobs) {
        return jobs.stream()
                .filter(job -> node.equals(api.job("team-a", job).text("node")))
                .toList();
    }

    private static Set<String> movedJobs(ApiClient client, String namespace) throws Exception {
        Set<String> moved = new TreeSet<>();
        for (CoreV1Event event :
                new CoreV1Api(client).listNamespacedEvent(namespace).execute().getItems()) {
            if ("Moved".equals(event.getReason())) {
                moved.add(event.getInvolvedObject().getName());
            }
        }
        return moved;
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Packing at deploy time, through REST, checked on the nodes the real kube-scheduler bound the pods to. */
@RealKubernetes
class PackingIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void sixThreeGpuJobsLandOnTwoNodesSoThatAnEightGpuJobStillFits(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        // the problem statement's cluster: 4 nodes x 10 GPUs, sized like real GPU servers (128 cores, 1 TiB).
        // The placement policy judges fragmentation against the expected job shapes, which ask for about 8 cores
        // per GPU: on nodes with the harness's default 16 cores big shapes never fit anyway, and packing is moot.
        for (int i = 0; i < 4; i++) {
            nodes.create(FakeGpuNodeSpec.of("pack", 10, 81920, "NVIDIA-H100-80GB-HBM3")
                    .withCpu(128)
                    .withMemoryMib(1024 * 1024));
        }
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 20, null),
                new TeamsFile.Quota("team-b", 20, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            Set<String> nodesOfA = new HashSet<>();
            for (int i = 1; i <= 6; i++) {
                QuotientApi.Answer placed = service.api().deploy("team-a", Requests.wholeGpus("a-" + i, 3));
                assertThat(placed.status()).as("deploying a-%d: %s", i, placed).isEqualTo(201);
                assertThat(placed.text("phase")).isEqualTo("Placed");
                String bound = cluster.boundNode("team-a", "a-" + i);
                assertThat(bound)
                        .as("the planned node is where kube-scheduler bound the pod")
                        .isEqualTo(placed.text("node"));
                nodesOfA.add(bound);
            }
            assertThat(nodesOfA).hasSize(2);

            QuotientApi.Answer big = service.api().deploy("team-b", Requests.wholeGpus("b-big", 8));

            assertThat(big.status()).as("%s", big).isEqualTo(201);
            String bigNode = cluster.boundNode("team-b", "b-big");
            assertThat(bigNode).isEqualTo(big.text("node")).isNotIn(nodesOfA);
            assertThat(cluster.jobs()).hasSize(7);
        }
    }
}

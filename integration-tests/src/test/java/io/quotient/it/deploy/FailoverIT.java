package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two replicas: the leader is SIGKILLed, the other decides within 15 s, and nothing is decided twice. */
@RealKubernetes
class FailoverIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void followerTakesOverWithin15SecondsOfTheLeadersDeathAndDecidesNothingTwice(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("ha", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 8, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        CoordinationV1Api coordination = new CoordinationV1Api(plane.apiClient());

        try (QuotientService one = QuotientService.process("replica-1", plane, namespace.name(), teams, dir);
                QuotientService two = QuotientService.process("replica-2", plane, namespace.name(), teams, dir)) {
            String holder = Leadership.leaseHolder(plane, namespace.name());
            QuotientService leader = holder.equals(one.name()) ? one : two;
            QuotientService follower = leader == one ? two : one;
            Leadership.awaitLeading(plane, namespace.name(), leader);
            for (int i = 1; i <= 3; i++) {
                assertThat(leader.api()
                                .deploy("team-a", Requests.wholeGpus("before-" + i, 2))
                                .status())
                        .isEqualTo(201);
            }
            ClusterInvariants.awaitConsistent(cluster, Duration.ofSeconds(60));
            Map<String, String> jobUids = jobUids(cluster);

            long killedAt = System.nanoTime();
            leader.kill();
            QuotientApi.Answer recorded = follower.api().deploy("team-a", Requests.wholeGpus("after-kill", 2));
            assertThat(recorded.status()).as("%s", recorded).isIn(201, 202);
            Await.until(
                    "the follower to place the job deployed after the leader died",
                    Duration.ofSeconds(15),
                    () -> follower.api().job("team-a", "after-kill").text("phase"),
                    phase -> "Placed".equals(phase) || "Running".equals(phase));
            System.out.printf(
                    "[failover] the follower placed a new job %.1f s after the leader was killed%n",
                    (System.nanoTime() - killedAt) / 1e9);
            assertThat(coordination
                            .readNamespacedLease("quotient-leader", namespace.name())
                            .execute()
                            .getSpec()
                            .getHolderIdentity())
                    .isEqualTo(follower.name());

            ClusterInvariants.awaitConsistent(cluster, Duration.ofSeconds(60));
            Map<String, String> after = jobUids(cluster);
            assertThat(after).hasSize(4);
            jobUids.forEach((name, uid) ->
                    assertThat(after).as("Job %s kept, not re-created", name).containsEntry(name, uid));
        }
    }

    private static Map<String, String> jobUids(ClusterFacts cluster) throws Exception {
        Map<String, String> uids = new TreeMap<>();
        for (V1Job job : cluster.jobs()) {
            uids.put(job.getMetadata().getName(), job.getMetadata().getUid());
        }
        return uids;
    }
}

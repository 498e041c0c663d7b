package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /api/v1/teams follows in-quota and borrowed GPUs as jobs come and go; maxGpus holds jobs back; reclaim takes
 * the least and keeps the victim team at its guarantee (issue 13's first example).
 */
@RealKubernetes
class QuotaIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void teamsReportInQuotaAndBorrowedGpusAndTheMaximumHoldsJobsBack(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir) {
        nodes.create(FakeGpuNodeSpec.of("quota", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        nodes.create(FakeGpuNodeSpec.of("quota", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 4, 6.0),
                new TeamsFile.Quota("team-b", 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            assertUsage(api.team("team-a"), 0, 0, 0, 0);
            assertThat(api.team("team-a").get("guaranteedGpus").getAsDouble()).isEqualTo(4);
            assertThat(api.team("team-a").get("maxGpus").getAsDouble()).isEqualTo(6);

            assertThat(api.deploy("team-a", Requests.wholeGpus("a1", 2)).text("quotaState"))
                    .isEqualTo("InQuota");
            assertThat(api.deploy("team-a", Requests.wholeGpus("a2", 2)).text("quotaState"))
                    .isEqualTo("InQuota");
            assertUsage(api.team("team-a"), 4, 4, 0, 0);

            QuotientApi.Answer borrowed = api.deploy("team-a", Requests.wholeGpus("a3", 2));
            assertThat(borrowed.status()).isEqualTo(201);
            assertThat(borrowed.text("quotaState")).isEqualTo("OverQuota");
            assertUsage(api.team("team-a"), 6, 4, 2, 0);
            assertUsage(api.team("team-b"), 0, 0, 0, 0);

            QuotientApi.Answer atMax = api.deploy("team-a", Requests.wholeGpus("a4", 1));
            assertThat(atMax.status()).as("%s", atMax).isEqualTo(202);
            assertThat(atMax.text("phase")).isEqualTo("Pending");
            assertThat(atMax.text("reason")).containsIgnoringCase("max");
            assertUsage(api.team("team-a"), 6, 4, 2, 1);
            assertThat(cluster.gpuJobs()).hasSize(4);

            assertThat(api.delete("team-a", "a1").status()).isBetween(200, 204);

            // the freed GPUs let the waiting job in: re-queued by the service itself
            Await.until(
                    "a4 to be placed by the re-queue",
                    () -> api.job("team-a", "a4").text("phase"),
                    phase -> "Placed".equals(phase) || "Running".equals(phase));
            JsonObject a = api.team("team-a");
            assertThat(a.get("allocatedGpus").getAsDouble()).isEqualTo(5);
            assertThat(a.get("inQuotaGpus").getAsDouble()
                            + a.get("overQuotaGpus").getAsDouble())
                    .isEqualTo(5);
            assertThat(a.get("inQuotaGpus").getAsDouble()).isLessThanOrEqualTo(4);
            assertThat(a.get("pendingJobs").getAsInt()).isZero();
            cluster.awaitRunningPod("team-a", "a4");
        }
    }

    @Test
    void reclaimEvictsTheLeastAndKeepsTheVictimTeamAtItsGuarantee(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir) {
        nodes.create(FakeGpuNodeSpec.of("reclaim", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 4, null),
                new TeamsFile.Quota("team-b", 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            for (String[] job : new String[][] {{"a5", "5"}, {"a2", "2"}, {"a1", "1"}}) {
                assertThat(api.deploy("team-a", Requests.wholeGpus(job[0], Integer.parseInt(job[1])))
                                .status())
                        .isEqualTo(201);
            }
            assertUsage(api.team("team-a"), 8, 5, 3, 0); // the 5-GPU job covers the guarantee of 4

            QuotientApi.Answer b3 = api.deploy("team-b", Requests.wholeGpus("b3", 3));
            assertThat(b3.status()).as("%s", b3).isEqualTo(201);
            assertThat(b3.text("phase")).isEqualTo("Placed");
            for (String evicted : new String[] {"a2", "a1"}) {
                assertThat(api.job("team-a", evicted).text("phase")).isIn("Pending", "Preempted");
            }
            assertThat(api.job("team-a", "a5").text("phase")).isIn("Placed", "Running");
            JsonObject a = api.team("team-a");
            assertThat(a.get("allocatedGpus").getAsDouble()).isEqualTo(5);
            assertThat(a.get("fairShareGpus").getAsDouble()).isEqualTo(5); // its 4 and the GPU b does not ask for
            assertThat(api.team("team-b").get("fairShareGpus").getAsDouble()).isEqualTo(3);
            cluster.awaitRunningPod("team-b", "b3");
            cluster.awaitRunningPod("team-a", "a5");
        }
    }

    private static void assertUsage(JsonObject team, double allocated, double inQuota, double overQuota, int pending) {
        assertThat(team.get("allocatedGpus").getAsDouble())
                .as("allocatedGpus of %s", team)
                .isEqualTo(allocated);
        assertThat(team.get("inQuotaGpus").getAsDouble())
                .as("inQuotaGpus of %s", team)
                .isEqualTo(inQuota);
        assertThat(team.get("overQuotaGpus").getAsDouble())
                .as("overQuotaGpus of %s", team)
                .isEqualTo(overQuota);
        assertThat(team.get("pendingJobs").getAsInt())
                .as("pendingJobs of %s", team)
                .isEqualTo(pending);
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad input gets its error, naming the field, and creates nothing in the cluster. */
@RealKubernetes
class BadInputIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void badRequestsAreRefusedWithTheirFieldAndLeaveTheClusterUntouched(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("bad", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 8, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            assertRefused(api.deploy("team-a", Requests.body("frac", Map.of("fraction", 1.5))), 400, "gpu.fraction");
            assertRefused(
                    api.deploy("team-a", Requests.body("limit", Map.of("fraction", 0.5, "fractionLimit", 0.3))),
                    400,
                    "gpu.fractionLimit");
            assertRefused(
                    api.deploy("team-a", Requests.body("both", Map.of("fraction", 0.5, "memoryMib", 2000))),
                    400,
                    "gpu");
            assertRefused(api.deploy("team-z", Requests.wholeGpus("nobody", 1)), 404, "team");
            assertRefused(
                    api.deploy("team-a", Requests.with(Requests.wholeGpus("tmpl", 1), "template", "no-such")),
                    400,
                    "template");
            assertRefused(api.deploy("team-a", Requests.wholeGpus("n".repeat(64), 1)), 400, "name");
            assertRefused(api.deploy("team-a", Requests.wholeGpus("Bad_Name!", 1)), 400, "name");
            assertRefused(
                    api.deployRaw("team-a", "{\"name\": \"typo\", \"gpu\": {\"count\": 1, \"fractoinLimit\": 1}}"),
                    400,
                    null);
            assertThat(cluster.gpuJobs()).isEmpty();
            assertThat(cluster.jobs()).isEmpty();

            assertThat(api.deploy("team-a", Requests.wholeGpus("taken", 1)).status())
                    .isEqualTo(201);
            assertRefused(api.deploy("team-a", Requests.wholeGpus("taken", 2)), 409, "name");
            assertThat(cluster.gpuJobs()).hasSize(1);
            assertThat(cluster.jobs()).hasSize(1);

            // a malformed quota file is refused; the last good configuration stays in force
            TeamsFile.writeText(teams, "teams:\n  - name: team-a\n    guaranteedGpus: [not a number\n");
            QuotientService.sleep(Duration.ofSeconds(3)); // past the 1 s poll interval
            assertThat(api.team("team-a").get("guaranteedGpus").getAsDouble()).isEqualTo(8);
            assertThat(api.deploy("team-a", Requests.wholeGpus("after-bad-file", 1))
                            .status())
                    .isEqualTo(201);
            assertThat(cluster.gpuJobs()).hasSize(2);
        }
    }

    private static void assertRefused(QuotientApi.Answer answer, int status, String field) {
        assertThat(answer.status()).as("%s", answer).isEqualTo(status);
        if (field != null) {
            assertThat(answer.text("field")).as("%s", answer).startsWith(field);
        }
        assertThat(answer.text("reason")).as("%s", answer).isNotBlank();
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's data on the real control plane: GET /api/v1/dashboard shows who borrows, who waits and why, and
 * the recent history read back from the Events the service recorded on the GpuJobs (so every replica, leader or
 * not, shows the same history).
 */
@RealKubernetes
class DashboardIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void showsBorrowedAndWaitingJobsAndTheEventsOfTheGpuJobs(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("dash", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 2, null),
                new TeamsFile.Quota("team-b", 1, 1.0));

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            assertThat(service.api()
                            .deploy("team-a", Requests.wholeGpus("own", 2))
                            .status())
                    .isEqualTo(201);
            assertThat(service.api()
                            .deploy("team-a", Requests.wholeGpus("borrow", 1))
                            .status())
                    .isEqualTo(201);
            assertThat(service.api()
                            .deploy("team-b", Requests.wholeGpus("first", 1))
                            .status())
                    .isEqualTo(201);
            // team-b may hold at most 1 GPU and holds it: its next job waits (and takes nothing back from team-a);
            // a single job asking more than maxGpus would be refused outright (400), since it could never run
            assertThat(service.api()
                            .deploy("team-b", Requests.wholeGpus("wait", 1))
                            .status())
                    .isEqualTo(202);

            JsonObject view = Await.until(
                    "the dashboard to show the Placed events of both team-a jobs",
                    () -> JsonParser.parseString(service.api().text("/api/v1/dashboard"))
                            .getAsJsonObject(),
                    v -> events(v, "Placed").containsAll(List.of("team-a/own", "team-a/borrow")));

            assertThat(view.getAsJsonObject("placed")
                            .getAsJsonObject("team-a/borrow")
                            .get("quotaState")
                            .getAsString())
                    .isEqualTo("OverQuota");
            assertThat(view.getAsJsonObject("placed")
                            .getAsJsonObject("team-a/own")
                            .get("quotaState")
                            .getAsString())
                    .isEqualTo("InQuota");
            JsonObject waiting = view.getAsJsonArray("pending").get(0).getAsJsonObject();
            assertThat(waiting.get("team").getAsString() + "/"
                            + waiting.get("name").getAsString())
                    .isEqualTo("team-b/wait");
            assertThat(waiting.get("gpus").getAsDouble()).isEqualTo(1.0);
            assertThat(waiting.get("reason").getAsString()).contains("maxGpus");
            assertThat(view.getAsJsonObject("cluster").getAsJsonArray("nodes")).hasSize(1);
        }
    }

    /** The jobs ({@code team/name}) that have an event of this reason in the view's history. */
    private static List<String> events(JsonObject view, String reason) {
        List<String> jobs = new ArrayList<>();
        for (JsonElement e : view.getAsJsonArray("recent")) {
            JsonObject event = e.getAsJsonObject();
            if (reason.equals(event.get("reason").getAsString())
                    && !event.get("team").isJsonNull()) {
                jobs.add(
                        event.get("team").getAsString() + "/" + event.get("job").getAsString());
            }
        }
        return jobs;
    }
}

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
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The greedy team and idle capacity, end to end: team A borrows 10 GPUs over its 20; team B claims its 20; A's
 * borrowed jobs (and only those) are evicted and wait with the reason; B's jobs run where kube-scheduler bound
 * them; when B's jobs finish, A's evicted jobs come back by themselves.
 */
@RealKubernetes
class GreedyTeamIT {

    private static final int JOBS_OF_A = 15;
    private static final int JOBS_OF_B = 10;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void borrowedGpusAreTakenBackAndTheEvictedJobsReturnWhenCapacityFrees(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        for (int i = 0; i < 4; i++) {
            nodes.create(FakeGpuNodeSpec.of("greedy", 10, 81920, "NVIDIA-H100-80GB-HBM3"));
        }
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 20, null),
                new TeamsFile.Quota("team-b", 20, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service =
                QuotientService.inProcess(plane, namespace.name(), teams, "--quotient.schedules.metrics-interval=1s")) {
            QuotientApi api = service.api();
            assertThat(api.text("/actuator/health/readiness")).contains("\"UP\"");
            assertThat(api.text("/actuator/health/liveness")).contains("\"UP\"");
            assertThat(new PrometheusSamples(api.prometheus()).value("quotient_leader", Map.of()))
                    .isEqualTo(1);
            Set<String> borrowed = new TreeSet<>();
            for (int i = 1; i <= JOBS_OF_A; i++) {
                QuotientApi.Answer answer = api.deploy("team-a", Requests.wholeGpus("a-" + i, 2));
                assertThat(answer.status()).as("%s", answer).isEqualTo(201);
                if ("OverQuota".equals(answer.text("quotaState"))) {
                    borrowed.add("a-" + i);
                }
                cluster.awaitRunningPod("team-a", "a-" + i);
            }
            assertThat(borrowed).hasSize(5);
            assertThat(api.team("team-a").get("overQuotaGpus").getAsDouble()).isEqualTo(10);

            for (int i = 1; i <= JOBS_OF_B; i++) {
                QuotientApi.Answer answer = api.deploy("team-b", Requests.wholeGpus("b-" + i, 2));
                assertThat(answer.status()).as("%s", answer).isEqualTo(201);
                assertThat(answer.text("quotaState")).isEqualTo("InQuota");
            }
            for (int i = 1; i <= JOBS_OF_B; i++) {
                assertThat(cluster.boundNode("team-b", "b-" + i)).isNotNull();
            }

            Set<String> evicted = new TreeSet<>();
            for (int i = 1; i <= JOBS_OF_A; i++) {
                QuotientApi.Answer job = api.job("team-a", "a-" + i);
                if ("Pending".equals(job.text("phase")) || "Preempted".equals(job.text("phase"))) {
                    evicted.add("a-" + i);
                    assertThat(job.text("reason"))
                            .as("%s", job)
                            .containsIgnoringCase("preempted")
                            .contains("team-b");
                }
            }
            assertThat(evicted).as("exactly the borrowed jobs are evicted").isEqualTo(borrowed);
            for (String name : evicted) {
                Await.until(
                        "the pods of evicted " + name + " to go",
                        () -> cluster.livePodsOf("team-a", name),
                        List::isEmpty);
            }
            Await.until(
                    "a Preempted event on each evicted job",
                    () -> events(plane.apiClient(), namespace.name(), "Preempted")
                            .keySet(),
                    events -> events.containsAll(objectNames(evicted)));

            // a job that cannot run now says why: in its answer, its GET and an Event
            QuotientApi.Answer waiting = api.deploy("team-a", Requests.wholeGpus("a-extra", 2));
            assertThat(waiting.status()).as("%s", waiting).isEqualTo(202);
            assertThat(waiting.text("phase")).isEqualTo("Pending");
            String why = waiting.text("reason");
            assertThat(why).isNotBlank().doesNotContain("recorded; waiting");
            Await.until(
                    "a Pending event saying what GET says",
                    () -> {
                        String shown = api.job("team-a", "a-extra").text("reason");
                        return shown != null
                                && shown.equals(events(plane.apiClient(), namespace.name(), "Pending")
                                        .get("team-a.a-extra"));
                    },
                    same -> same);

            PrometheusSamples afterReclaim = Await.until(
                    "the gauges to show the reclaim",
                    () -> new PrometheusSamples(api.prometheus()),
                    m -> m.value("quotient_team_pending_jobs", Map.of("team", "team-a")) == 6);
            assertThat(afterReclaim.value("quotient_preemptions_total", Map.of("team", "team-a", "cause", "reclaim")))
                    .isEqualTo(5);
            assertThat(afterReclaim.value("quotient_team_guaranteed_gpus", Map.of("team", "team-b")))
                    .isEqualTo(20);
            assertThat(afterReclaim.value("quotient_team_allocated_gpus", Map.of("team", "team-b")))
                    .isEqualTo(20);
            assertThat(afterReclaim.value("quotient_team_allocated_gpus", Map.of("team", "team-a")))
                    .isEqualTo(20);
            assertThat(afterReclaim.value("quotient_team_borrowed_gpus", Map.of("team", "team-a")))
                    .isZero();
            assertThat(afterReclaim.value("quotient_cluster_free_gpus", Map.of()))
                    .isZero();
            assertThat(afterReclaim.value("quotient_cluster_fragmentation_percent", Map.of()))
                    .isZero();
            assertThat(afterReclaim.value("quotient_deploy_latency_seconds_count", Map.of("outcome", "Placed")))
                    .isEqualTo(JOBS_OF_A + JOBS_OF_B);
            assertThat(afterReclaim.value("quotient_deploy_latency_seconds_count", Map.of("outcome", "Pending")))
                    .isEqualTo(1);

            for (int i = 1; i <= JOBS_OF_B; i++) {
                cluster.finish(kubelet, "team-b", "b-" + i);
            }
            for (String name : evicted) {
                cluster.awaitRunningPod("team-a", name);
            }
            cluster.awaitRunningPod("team-a", "a-extra");
            assertThat(api.team("team-a").get("pendingJobs").getAsInt()).isZero();
            assertThat(new PrometheusSamples(api.prometheus())
                            .value("quotient_requeues_total", Map.of("team", "team-a")))
                    .isEqualTo(evicted.size() + 1);
        }
    }

    /** The latest message of each GpuJob's events with this reason, by the GpuJob's name. */
    private static Map<String, String> events(ApiClient client, String namespace, String reason) throws ApiException {
        Map<String, String> messages = new TreeMap<>();
        List<CoreV1Event> all = new ArrayList<>(
                new CoreV1Api(client).listNamespacedEvent(namespace).execute().getItems());
        all.sort(Comparator.comparing(CoreV1Event::getLastTimestamp, Comparator.nullsFirst(Comparator.naturalOrder())));
        for (CoreV1Event event : all) {
            if (reason.equals(event.getReason())
                    && "GpuJob".equals(event.getInvolvedObject().getKind())) {
                messages.put(event.getInvolvedObject().getName(), event.getMessage());
            }
        }
        return messages;
    }

    private static List<String> objectNames(Set<String> jobs) {
        List<String> names = new ArrayList<>();
        jobs.forEach(job -> names.add("team-a." + job));
        return names;
    }
}

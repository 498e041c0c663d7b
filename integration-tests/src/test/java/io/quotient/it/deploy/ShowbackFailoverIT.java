package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.testing.PrometheusServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Showback equals the ground truth of a scripted scenario across a leader failover and service restarts (issue 34,
 * docs/usage.md "Restarts and leader changes"). Two service processes account a 2-GPU job while the test plays the
 * node enforcer (cumulative counters, busy at scripted rates); the leader is SIGKILLed, the crashed replica is
 * started again, and the replica that then leads is stopped and started again, so the office moves twice and every
 * new leader continues from the records the previous one stored.
 *
 * <p>What docs/usage.md promises, and what is asserted:
 *
 * <ul>
 *   <li><b>Allocated</b> GPU-seconds are counted by the leader from one observation to the next, from the first
 *       observation that sees the job placed, and across a change of leader from the stored {@code asOf} (the gaps
 *       here are far below max-gap). So they never exceed G × (now − placement): anything counted twice would (up
 *       to the observation's own clock reading, taken just before it reads the job records: 0.5 s), and fall
 *       short of it by at most one usage interval at each end (the first observation after the placement, the
 *       last before the read), each up to {@link #TICK_LATENESS} late on a loaded machine. The stored record holds
 *       exactly G × (asOf − trackingSince): no window counted twice, none left out.
 *   <li><b>Used</b> GPU-seconds come from the enforcer's cumulative counters, so they equal what the enforcer
 *       published, except the counters a pod had before accounting of its job began (a baseline only) and what
 *       the leader has not yet observed (one report period plus one interval). The script makes both zero: the
 *       GPUs are idle for a lead-in and for a tail longer than that, so used must equal the published busy
 *       GPU-seconds exactly (to the API's rounding); a follower's answer, from the stored records, too.
 *   <li><b>Prometheus</b> (Debian's server, scraping every replica that runs, each restarted one as a new target,
 *       and evaluating the shipped rules, deploy/prometheus): the team's GPU-hours of the last day agree with the
 *       API's to within the series' first value (about one usage interval of the job's GPUs; used: nothing, the
 *       GPUs are idle then) and one scrape plus one evaluation interval (1 s each).
 * </ul>
 */
@RealKubernetes
class ShowbackFailoverIT {

    private static final String TEAM = "team-a";
    private static final String JOB = "notebook";
    private static final int GPUS = 2;
    /**
     * Short usage settings, so that the run takes minutes (any positive value is accepted; max-gap stays 5 min, far
     * above persist-interval + interval and the failover's silence).
     */
    private static final Duration INTERVAL = Duration.ofSeconds(2);

    private static final Duration PERSIST = Duration.ofSeconds(4);
    private static final Duration REPORT_PERIOD = Duration.ofSeconds(2);
    /** How much later than its interval a usage observation may run on the loaded 2-core test machine. */
    private static final Duration TICK_LATENESS = Duration.ofSeconds(1);
    /** An observation reads its clock a moment before it reads the job records. */
    private static final double CLOCK_BEFORE_READ_SECONDS = 0.5;
    /** The API rounds GPU-hours to 4 decimals: at most 0.18 GPU-seconds off per row (and a hair for the doubles). */
    private static final double API_ROUNDING_SECONDS = 0.18 + 1e-6;

    /** The rules' lag behind the API: one scrape and one evaluation interval. */
    private static final Duration PROMETHEUS_LAG = Duration.ofSeconds(2);

    private static final Path RULES = Path.of("../deploy/prometheus/quotient-rules.yaml");
    private static final Path INSTALL_PROMETHEUS = Path.of("../plugin/src/test/bin/install-prometheus");

    private static final Duration LEAD_IN = INTERVAL.plus(TICK_LATENESS).plus(REPORT_PERIOD);
    /** Until the last busy report is observed by the leader and stored. */
    private static final Duration TAIL =
            REPORT_PERIOD.plus(INTERVAL).plus(PERSIST).plus(INTERVAL).plus(TICK_LATENESS.multipliedBy(2));

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void showbackEqualsTheScriptedGroundTruthAcrossAFailoverAndARestart(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("showback", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota(TEAM, 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        PrometheusServer.ensureInstalled(INSTALL_PROMETHEUS);
        Path prometheusDir = Files.createDirectories(dir.resolve("prometheus"));
        try (PrometheusServer prometheus = PrometheusServer.start(
                        prometheusDir, "quotient", "/actuator/prometheus", List.of(), List.of(RULES));
                Replicas replicas = new Replicas(plane, namespace.name(), teams, dir, prometheus)) {
            QuotientService one = replicas.start("replica-1");
            QuotientService two = replicas.start("replica-2");
            QuotientService first =
                    Leadership.leaseHolder(plane, namespace.name()).equals(one.name()) ? one : two;
            QuotientService second = first == one ? two : one;
            Leadership.awaitLeading(plane, namespace.name(), first);
            // the rules count from a series' first sample: Prometheus scrapes both before the job is placed
            prometheus.awaitScraped(2);

            QuotientApi.Answer deployed = first.api().deploy(TEAM, Requests.wholeGpus(JOB, GPUS));
            assertThat(deployed.status()).as("%s", deployed).isEqualTo(201);
            JsonObject job = first.api().job(TEAM, JOB).object();
            Instant placedAt = Instant.parse(job.get("placedAt").getAsString());
            assertThat(job.get("node").getAsString()).isEqualTo(node.name());
            List<String> gpus = new ArrayList<>();
            job.getAsJsonArray("gpus")
                    .forEach(g -> gpus.add(
                            node.gpuUuids().get(g.getAsJsonObject().get("index").getAsInt())));
            V1Pod pod = Await.until(
                            "the job's pod to run",
                            () -> cluster.livePodsOf(TEAM, JOB),
                            pods -> pods.size() == 1
                                    && "Running".equals(pods.get(0).getStatus().getPhase()))
                    .get(0);

            try (ScriptedEnforcer enforcer =
                    ScriptedEnforcer.start(plane.apiClient(), node.name(), pod, gpus, REPORT_PERIOD)) {
                // idle while the pod's first counters may still be taken as a baseline only
                QuotientService.sleep(LEAD_IN);
                enforcer.utilization(100, 50);
                QuotientService.sleep(Duration.ofSeconds(10)); // the first leader counts and stores
                long killedAt = System.nanoTime();
                replicas.kill(first);
                Leadership.awaitLeading(plane, namespace.name(), second);
                System.out.printf(
                        "[showback] %s leads %.1f s after %s was killed%n",
                        second.name(), (System.nanoTime() - killedAt) / 1e9, first.name());
                QuotientService.sleep(Duration.ofSeconds(6));
                enforcer.utilization(25, 75);
                QuotientService restarted = replicas.start(first.name()); // the crashed replica comes back
                replicas.stop(second); // the leader stops (a rolling restart): the office moves again
                Leadership.awaitLeading(plane, namespace.name(), restarted);
                QuotientService back = replicas.start(second.name());
                QuotientService.sleep(Duration.ofSeconds(6));
                enforcer.utilization(0, 0);
                QuotientService.sleep(TAIL);

                // the rules first: their figures are then older than the API's, never newer
                Instant rulesReadAt = Instant.now();
                double ruleAllocated = prometheus.value("team:quotient_gpu_allocated_hours:1d{team=\"" + TEAM + "\"}");
                double ruleUsed = prometheus.value("team:quotient_gpu_used_hours:1d{team=\"" + TEAM + "\"}");
                Instant readFrom = Instant.now();
                JsonObject byJob = onlyRow(restarted.api().usage("job"));
                JsonObject byTeam = onlyRow(restarted.api().usage("team"));
                Instant readTo = Instant.now();
                JsonObject stored = onlyRow(back.api().usage("job"));
                ScriptedEnforcer.Published truth = enforcer.published();

                double busiest = seconds(placedAt, readTo) * GPUS;
                double leastAllocated =
                        (seconds(placedAt, readFrom) - 2 * seconds(INTERVAL.plus(TICK_LATENESS))) * GPUS;
                System.out.printf(
                        "[showback] job held %d GPUs for %.1f s: allocated %.2f GPU-s (API, leader), %.2f (follower);"
                                + " used %.2f GPU-s, the enforcer published %.2f busy GPU-s over %.1f s%n",
                        GPUS,
                        seconds(placedAt, readTo),
                        gpuSeconds(byJob, "allocatedGpuHours"),
                        gpuSeconds(stored, "allocatedGpuHours"),
                        gpuSeconds(byJob, "usedGpuHours"),
                        truth.busyGpuSeconds(),
                        truth.presentSeconds());

                assertThat(byJob.get("job").getAsString()).isEqualTo(JOB);
                assertThat(byTeam.get("team").getAsString()).isEqualTo(TEAM);
                for (JsonObject row : List.of(byJob, byTeam)) {
                    assertThat(gpuSeconds(row, "allocatedGpuHours"))
                            .as(
                                    "allocated GPU-seconds of %s: never more than the job held, short by at most one"
                                            + " interval at each end",
                                    row)
                            .isBetween(
                                    leastAllocated - API_ROUNDING_SECONDS,
                                    busiest + GPUS * CLOCK_BEFORE_READ_SECONDS + API_ROUNDING_SECONDS);
                    assertThat(gpuSeconds(row, "inQuotaGpuHours"))
                            .isCloseTo(gpuSeconds(row, "allocatedGpuHours"), within(API_ROUNDING_SECONDS));
                    assertThat(gpuSeconds(row, "usedGpuHours"))
                            .as("used GPU-seconds of %s: the busy GPU-seconds the enforcer published", row)
                            .isCloseTo(truth.busyGpuSeconds(), within(API_ROUNDING_SECONDS));
                }
                assertThat(gpuSeconds(stored, "usedGpuHours"))
                        .as("a follower's answer, from the stored records")
                        .isCloseTo(truth.busyGpuSeconds(), within(API_ROUNDING_SECONDS));
                assertThat(gpuSeconds(stored, "allocatedGpuHours"))
                        .isBetween(
                                leastAllocated - seconds(PERSIST.plus(INTERVAL)) * GPUS - API_ROUNDING_SECONDS,
                                busiest + GPUS * CLOCK_BEFORE_READ_SECONDS + API_ROUNDING_SECONDS);

                assertStoredRecordIsExact(plane.apiClient(), namespace.name(), placedAt, truth);

                System.out.printf(
                        "[showback] the recording rules give %.2f GPU-s allocated, %.2f used%n",
                        ruleAllocated * 3600, ruleUsed * 3600);
                assertThat(ruleAllocated * 3600)
                        .as("the rule's allocated GPU-seconds: the API's less the series' first value, the lag and what"
                                + " the job held between the two reads")
                        .isBetween(
                                gpuSeconds(byTeam, "allocatedGpuHours")
                                        - GPUS
                                                * (seconds(INTERVAL.plus(TICK_LATENESS)
                                                                .plus(PROMETHEUS_LAG))
                                                        + seconds(rulesReadAt, readTo))
                                        - API_ROUNDING_SECONDS,
                                gpuSeconds(byTeam, "allocatedGpuHours") + API_ROUNDING_SECONDS);
                assertThat(ruleUsed * 3600)
                        .as("the rule's used GPU-seconds: the API's (no use in the first value nor in the tail)")
                        .isCloseTo(gpuSeconds(byTeam, "usedGpuHours"), within(API_ROUNDING_SECONDS));
            }
        }
    }

    /**
     * The stored record: allocation is G × (asOf − trackingSince) exactly, accounting began with the first
     * observation after the placement, and the busy GPU-seconds are the published ones.
     */
    private static void assertStoredRecordIsExact(
            ApiClient client, String namespace, Instant placedAt, ScriptedEnforcer.Published truth) throws Exception {
        List<V1ConfigMap> records = new CoreV1Api(client)
                .listNamespacedConfigMap(namespace)
                .labelSelector("quotient.io/usage-record=true")
                .execute()
                .getItems();
        assertThat(records).hasSize(1);
        JsonObject record = JsonParser.parseString(records.get(0).getData().get("record.json"))
                .getAsJsonObject();
        Instant trackingSince = Instant.parse(record.get("trackingSince").getAsString());
        Instant asOf = Instant.parse(record.get("asOf").getAsString());
        double allocated = 0;
        double busy = 0;
        for (var day : record.getAsJsonObject("days").entrySet()) {
            JsonObject counters = day.getValue().getAsJsonObject();
            allocated += counters.get("allocatedInQuotaGpuSeconds").getAsDouble()
                    + counters.get("allocatedBorrowedGpuSeconds").getAsDouble();
            busy += counters.get("busyGpuSeconds").getAsDouble();
        }
        assertThat(seconds(placedAt, trackingSince))
                .as("accounting began with the first observation after the placement")
                .isBetween(-CLOCK_BEFORE_READ_SECONDS, seconds(INTERVAL.plus(TICK_LATENESS)));
        assertThat(allocated)
                .as("stored allocation: %d GPUs from trackingSince %s to asOf %s", GPUS, trackingSince, asOf)
                .isCloseTo(GPUS * seconds(trackingSince, asOf), within(1e-6));
        assertThat(busy).isCloseTo(truth.busyGpuSeconds(), within(1e-6));
    }

    private static JsonObject onlyRow(JsonArray rows) {
        assertThat(rows).as("%s", rows).hasSize(1);
        return rows.get(0).getAsJsonObject();
    }

    private static double gpuSeconds(JsonObject row, String hoursField) {
        JsonElement hours = row.get(hoursField);
        return hours.getAsDouble() * 3600;
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** The service processes of the test, each started with the short usage settings; all stopped at the end. */
    private static final class Replicas implements AutoCloseable {
        private final ControlPlane plane;
        private final String namespace;
        private final Path teams;
        private final Path dir;
        private final PrometheusServer prometheus;
        private final List<QuotientService> started = new ArrayList<>();

        Replicas(ControlPlane plane, String namespace, Path teams, Path dir, PrometheusServer prometheus) {
            this.plane = plane;
            this.namespace = namespace;
            this.teams = teams;
            this.dir = dir;
            this.prometheus = prometheus;
        }

        QuotientService start(String name) throws IOException {
            QuotientService service = QuotientService.process(
                    name,
                    plane,
                    namespace,
                    teams,
                    dir,
                    "--quotient.usage.interval=" + INTERVAL.toSeconds() + "s",
                    "--quotient.usage.persist-interval=" + PERSIST.toSeconds() + "s");
            started.add(service);
            scrapeRunning();
            return service;
        }

        /** A graceful stop (SIGTERM): the service hands its Lease over. */
        void stop(QuotientService service) throws IOException {
            service.close();
            scrapeRunning();
        }

        /** SIGKILL, as in a crash. */
        void kill(QuotientService service) throws IOException {
            service.kill();
            scrapeRunning();
        }

        /** Prometheus scrapes the replicas that run, as its Kubernetes discovery would the pods. */
        private void scrapeRunning() throws IOException {
            prometheus.targets(started.stream()
                    .filter(QuotientService::alive)
                    .map(QuotientService::address)
                    .toList());
        }

        @Override
        public void close() {
            started.forEach(QuotientService::close);
        }
    }
}

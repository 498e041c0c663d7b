package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sustained deploys per second and p50/p99 deploy latency through REST into the real API server, with 500 jobs
 * already placed (targets: at least 50 deploys/s, p99 under 200 ms). Each deploy records a GpuJob, decides, writes
 * the placement and creates the Job. The same 250 deploys are measured in {@link #ROUNDS} rounds, each removed again
 * (REST DELETE) before the next, so every round starts from the same 500 placed jobs: the first round runs on a JVM
 * still compiling the service's code (just started, as after a rollout), the last one on a warmed-up service, which
 * is what "sustained" describes. Every round is printed. Run: mvn -pl plugin,integration-tests verify -Dtest=NONE
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=DeployBenchmarkIT -Dsurefire.excludedGroups=none.
 */
@Tag("benchmark")
@RealKubernetes
class DeployBenchmarkIT {

    private static final int NODES = 100;
    private static final int GPUS_PER_NODE = 8;
    private static final int ALREADY_PLACED = 500;
    private static final int MEASURED = 250;
    private static final int ROUNDS = 4;
    private static final int CLIENTS = 4;
    private static final Duration QUIET_TIMEOUT = Duration.ofMinutes(3);

    @BeforeAll
    static void installCrdAndRoles(ApiClient client) {
        QuotientManifests.installCrdAndRoles(client);
    }

    @Test
    void deploysPerSecondAndLatencyWith500JobsPlaced(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        for (int i = 0; i < NODES; i++) {
            nodes.create(FakeGpuNodeSpec.of("bench", GPUS_PER_NODE, 81920, "NVIDIA-H100-80GB-HBM3"));
        }
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 1000, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        // every call authenticated and authorised as in production: a team member's token, reviewed by the API server
        String token = TeamMembers.token(plane.apiClient(), namespace.name(), "bench");
        // the shipped schedules (application.yaml), not the tests' every-second re-queue
        try (QuotientService quotient = QuotientService.inProcess(
                plane,
                namespace.name(),
                teams,
                "--quotient.schedules.requeue-interval=5s",
                "--quotient.schedules.reclaim-interval=15s",
                "--quotient.access.mode=kubernetes")) {
            QuotientApi api = quotient.api(token);
            run(api, "placed", ALREADY_PLACED);
            awaitQuiet(cluster, "the 500 placed jobs");

            for (int round = 1; round <= ROUNDS; round++) {
                long start = System.nanoTime();
                List<Long> latencies = run(api, "round" + round, MEASURED);
                double seconds = (System.nanoTime() - start) / 1e9;
                report(round, latencies, seconds);
                Await.until(
                        "every Job of round " + round + " to exist",
                        cluster::jobs,
                        jobs -> jobs.size() == ALREADY_PLACED + MEASURED);
                if (round < ROUNDS) {
                    removeRound(api, round);
                    awaitQuiet(cluster, "round " + round + " removed");
                }
            }
        }
    }

    /**
     * Waits until exactly the placed jobs' Jobs exist and each has one running pod, nothing terminating: the
     * controllers have finished what the previous phase started (kube-controller-manager creates pods at its
     * default 20 requests/s), so each round starts from the same quiet cluster and measures only its own work.
     */
    private static void awaitQuiet(ClusterFacts cluster, String after) {
        Await.until(
                "the Jobs to settle after " + after,
                QUIET_TIMEOUT,
                cluster::jobs,
                jobs -> jobs.size() == ALREADY_PLACED);
        Await.until(
                "one running pod per placed job after " + after,
                QUIET_TIMEOUT,
                cluster::pods,
                pods -> pods.size() == ALREADY_PLACED
                        && pods.stream()
                                .allMatch(p -> p.getMetadata().getDeletionTimestamp() == null
                                        && "Running".equals(p.getStatus().getPhase())));
    }

    private static void report(int round, List<Long> latencies, double seconds) {
        Collections.sort(latencies);
        String when = round == 1 ? "service just started" : round == ROUNDS ? "warmed up, sustained" : "warming up";
        System.out.println(String.format(
                "[benchmark] deploy through REST into the API server, round %d of %d (%s),"
                        + " %d jobs already placed, %d clients: %d deploys in %.2f s = %.1f deploys/s; latency p50 %.1f ms,"
                        + " p99 %.1f ms, max %.1f ms (targets: >= 50 deploys/s, p99 < 200 ms)",
                round,
                ROUNDS,
                when,
                ALREADY_PLACED,
                CLIENTS,
                MEASURED,
                seconds,
                MEASURED / seconds,
                percentile(latencies, 0.50),
                percentile(latencies, 0.99),
                latencies.get(latencies.size() - 1) / 1e6));
    }

    private static void removeRound(QuotientApi api, int round) {
        for (int i = 0; i < MEASURED; i++) {
            QuotientApi.Answer answer = api.delete("team-a", "round" + round + "-" + i);
            if (answer.status() != 200) {
                throw new AssertionError("deleting round" + round + "-" + i + " failed: " + answer);
            }
        }
    }

    /** Deploys {@code count} one-GPU jobs from {@link #CLIENTS} threads; returns each deploy's latency in ns. */
    private static List<Long> run(QuotientApi api, String prefix, int count) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Long>> deploys = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = prefix + "-" + i;
                deploys.add(clients.submit(() -> {
                    long t0 = System.nanoTime();
                    QuotientApi.Answer answer = api.deploy("team-a", Requests.wholeGpus(name, 1));
                    long latency = System.nanoTime() - t0;
                    if (answer.status() != 201) {
                        throw new AssertionError("deploy " + name + " was not placed: " + answer);
                    }
                    return latency;
                }));
            }
            List<Long> latencies = new ArrayList<>();
            for (Future<Long> deploy : deploys) {
                latencies.add(deploy.get());
            }
            return latencies;
        } finally {
            clients.shutdown();
        }
    }

    private static double percentile(List<Long> sorted, double p) {
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}

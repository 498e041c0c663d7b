package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decision speed of the scheduler on a 1,000-node cluster (8 GPUs each), one thread: a re-queue of 6,000 mixed
 * jobs (whole GPUs, fractions, MiB) for three borrowing teams on an empty cluster, single deploys on the then busy
 * cluster, a deploy of an idle team that takes its guarantee back (preempts), and a consolidation plan. Prints the
 * figures.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=SchedulerThroughputBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class SchedulerThroughputBenchmark {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void decisionsPerSecond() {
        List<NodeSpec> nodes = ClusterRun.nodes(1000, 8);
        Map<String, Team> teams = Map.of("team-a", Team.of("team-a", 2500), "team-b", Team.of("team-b", 2500),
                "team-c", new Team("team-c", 500_000, Team.UNLIMITED, 2, 0), "team-d", Team.of("team-d", 500));
        Random random = new Random(42);
        List<PendingJob> queue = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            String team = i % 3 == 0 ? "team-a" : i % 3 == 1 ? "team-b" : "team-c";
            queue.add(new PendingJob(randomJob(random, team, "j" + i), NOW.plusMillis(i)));
        }
        QuotaScheduler scheduler = QuotaScheduler.withDefaults();
        Set<String> ready = Set.copyOf(nodes.stream().map(NodeSpec::name).toList());
        SchedulingSnapshot empty = new SchedulingSnapshot(nodes, ready, List.of(), queue, teams, NOW);
        scheduler.schedulePending(empty); // warm-up
        long start = System.nanoTime();
        Plan plan = scheduler.schedulePending(empty);
        double queueSeconds = (System.nanoTime() - start) / 1e9;
        List<PlacedJob> placed = plan.actionsOf(PlanAction.Place.class).stream().map(PlanAction.Place::placement)
                .map(p -> new PlacedJob(p.spec(), p.node(), p.gpuIndices(), p.milliPerGpu(), p.quotaState(),
                        NOW.minus(Duration.ofHours(1))))
                .toList();
        System.out.printf(Locale.ROOT, "re-queue of %d jobs on %d nodes: %.2f s, %,.0f decisions/s, %d placed%n",
                queue.size(), nodes.size(), queueSeconds, queue.size() / queueSeconds, placed.size());

        SchedulingSnapshot busy = new SchedulingSnapshot(nodes, ready, placed, List.of(), teams, NOW);
        int deploys = 200;
        start = System.nanoTime();
        for (int i = 0; i < deploys; i++) {
            scheduler.schedule(busy, randomJob(random, "team-c", "new" + i));
        }
        double perDeploy = (System.nanoTime() - start) / 1e6 / deploys;
        System.out.printf(Locale.ROOT, "single deploy on a cluster with %d jobs: %.1f ms%n", placed.size(), perDeploy);

        start = System.nanoTime();
        Plan reclaim = scheduler.schedule(busy, ClusterRun.job("team-d", "reclaim", 8));
        System.out.printf(Locale.ROOT, "deploy that preempts (%d evictions): %.1f ms%n",
                reclaim.actionsOf(PlanAction.Evict.class).size(), (System.nanoTime() - start) / 1e6);

        start = System.nanoTime();
        Plan moves = scheduler.rebalance(busy, 0.1);
        System.out.printf(Locale.ROOT, "consolidation plan (%d moves): %.2f s%n",
                moves.actionsOf(PlanAction.Move.class).size(), (System.nanoTime() - start) / 1e9);
        assertThat(placed).isNotEmpty();
    }

    private static JobSpec randomJob(Random random, String team, String name) {
        int kind = random.nextInt(10);
        GpuRequest gpu = kind < 4 ? new GpuRequest.WholeGpus(1 << random.nextInt(4))
                : kind < 8 ? new GpuRequest.Fraction(100 + random.nextInt(800), 1000, 1)
                : new GpuRequest.Memory(1000 + random.nextInt(30_000), 40_000, 1);
        return new JobSpec(new JobId(team, name), gpu, 1000, 2048, Set.of(), random.nextInt(3), true, Duration.ZERO);
    }
}

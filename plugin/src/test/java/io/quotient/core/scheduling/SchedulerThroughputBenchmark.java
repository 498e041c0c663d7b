package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Decision speed of the scheduler on a 1,000-node cluster (8 GPUs each), one thread: a re-queue of 6,000 mixed
 * jobs (whole GPUs, fractions, MiB) for three borrowing teams on an empty cluster, single deploys on the then busy
 * cluster, a deploy of an idle team that takes its guarantee back (preempts), and a consolidation plan; and single
 * reclaim and consolidation decisions on a full cluster of 6,000 jobs ({@link #reclaimAndConsolidationPlans}). Prints
 * the figures.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=SchedulerThroughputBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class SchedulerThroughputBenchmark {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void decisionsPerSecond() {
        List<NodeSpec> nodes = ClusterRun.nodes(1000, 8);
        Map<String, Team> teams = Map.of(
                "team-a",
                Team.of("team-a", 2500),
                "team-b",
                Team.of("team-b", 2500),
                "team-c",
                new Team("team-c", 500_000, Team.UNLIMITED, 2, 0),
                "team-d",
                Team.of("team-d", 500));
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
        List<PlacedJob> placed = plan.actionsOf(PlanAction.Place.class).stream()
                .map(PlanAction.Place::placement)
                .map(p -> new PlacedJob(
                        p.spec(),
                        p.node(),
                        p.gpuIndices(),
                        p.milliPerGpu(),
                        p.quotaState(),
                        NOW.minus(Duration.ofHours(1))))
                .toList();
        System.out.printf(
                Locale.ROOT,
                "re-queue of %d jobs on %d nodes: %.2f s, %,.0f decisions/s, %d placed%n",
                queue.size(),
                nodes.size(),
                queueSeconds,
                queue.size() / queueSeconds,
                placed.size());

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
        System.out.printf(
                Locale.ROOT,
                "deploy that preempts (%d evictions): %.1f ms%n",
                reclaim.actionsOf(PlanAction.Evict.class).size(),
                (System.nanoTime() - start) / 1e6);

        start = System.nanoTime();
        Plan moves = scheduler.rebalance(busy, 0.1);
        System.out.printf(
                Locale.ROOT,
                "consolidation plan (%d moves): %.2f s%n",
                moves.actionsOf(PlanAction.Move.class).size(),
                (System.nanoTime() - start) / 1e9);
        assertThat(placed).isNotEmpty();
    }

    private static JobSpec randomJob(Random random, String team, String name) {
        int kind = random.nextInt(10);
        GpuRequest gpu = kind < 4
                ? new GpuRequest.WholeGpus(1 << random.nextInt(4))
                : kind < 8
                        ? new GpuRequest.Fraction(100 + random.nextInt(800), 1000, 1)
                        : new GpuRequest.Memory(1000 + random.nextInt(30_000), 40_000, 1);
        return new JobSpec(new JobId(team, name), gpu, 1000, 2048, Set.of(), random.nextInt(3), true, Duration.ZERO);
    }

    private static final List<NodeSpec> NODES = ClusterRun.nodes(1000, 8);
    private static final Set<String> READY =
            Set.copyOf(NODES.stream().map(NodeSpec::name).toList());
    private final QuotaScheduler scheduler = QuotaScheduler.withDefaults();

    /**
     * One reclaim or consolidation decision on 1,000 nodes × 8 GPUs holding 6,000 running jobs (whole GPUs and
     * fractions), median of 15 runs after 5 warm-ups: a guarantee reclaim of a whole node, a reclaim that moves jobs
     * instead of evicting, a fair-share reclaim, and a job waiting only for fragmentation.
     */
    @Test
    void reclaimAndConsolidationPlans() {
        // A holds nodes 1-625 (5,000 GPUs against a guarantee of 3,000), B nodes 626-1000 (3,000, its guarantee)
        List<PlacedJob> full = fill(n -> n < 625 ? "team-a" : "team-b", Set.of());
        assertThat(full).hasSize(6000);
        Map<String, Team> guarantees = Map.of(
                "team-a",
                Team.of("team-a", 3000),
                "team-b",
                Team.of("team-b", 3000),
                "team-c",
                Team.of("team-c", 2000));
        measure(
                "guarantee reclaim of a whole node (8 GPUs)",
                full,
                guarantees,
                () -> ClusterRun.job("team-c", "c8", 8),
                p -> p.evictions() > 0);

        // one 1-GPU job finished on each of the nodes 1-400: 400 GPUs free, one per node
        List<PlacedJob> scattered = fill(n -> n < 625 ? "team-a" : "team-b", Set.of(400));
        measure(
                "guarantee reclaim with moves (4 GPUs)",
                scattered,
                guarantees,
                () -> ClusterRun.job("team-c", "c4", 4),
                p -> p.moves() > 0);

        Map<String, Team> weights = Map.of(
                "team-a",
                new Team("team-a", 0, Team.UNLIMITED, 1, 0),
                "team-b",
                new Team("team-b", 3000_000, Team.UNLIMITED, 1, 0),
                "team-c",
                new Team("team-c", 0, Team.UNLIMITED, 2, 0));
        measure(
                "fair-share reclaim (weight 2 vs 1, 8 GPUs)",
                full,
                weights,
                () -> ClusterRun.job("team-c", "c8", 8),
                p -> p.evictions() > 0);

        Map<String, Team> borrowing = Map.of(
                "team-a",
                Team.of("team-a", 3000),
                "team-b",
                Team.of("team-b", 3000),
                "team-c",
                new Team("team-c", 0, Team.UNLIMITED, 1, 0).withFairShareReclaim(false));
        measure(
                "on-demand consolidation for a fragmented 2-GPU job",
                scattered,
                borrowing,
                () -> ClusterRun.job("team-c", "c2", 2),
                p -> p.moves() > 0 && p.evictions() == 0);
    }

    private record Shape(int evictions, int moves, boolean placed) {}

    private void measure(
            String what,
            List<PlacedJob> placed,
            Map<String, Team> teams,
            Supplier<JobSpec> job,
            Predicate<Shape> expected) {
        SchedulingSnapshot snapshot = new SchedulingSnapshot(NODES, READY, placed, List.of(), teams, NOW);
        Plan plan = null;
        for (int i = 0; i < 5; i++) {
            plan = scheduler.schedule(snapshot, job.get());
        }
        double[] ms = new double[15];
        for (int i = 0; i < ms.length; i++) {
            long start = System.nanoTime();
            plan = scheduler.schedule(snapshot, job.get());
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        Shape shape = new Shape(
                plan.actionsOf(PlanAction.Evict.class).size(),
                plan.actionsOf(PlanAction.Move.class).size(),
                !plan.actionsOf(PlanAction.Place.class).isEmpty());
        System.out.printf(
                Locale.ROOT,
                "%s on %d nodes with %d jobs: %.1f ms (median; %d evictions, %d moves)%n",
                what,
                NODES.size(),
                placed.size(),
                ms[ms.length / 2],
                shape.evictions(),
                shape.moves());
        assertThat(shape.placed()).as(what).isTrue();
        assertThat(expected.test(shape)).as(what + ": " + shape).isTrue();
    }

    /**
     * Six jobs per node, alternating two shapes: 2+2+1+1+1+1 GPUs, and 4+1+1+1 GPUs with two halves sharing a GPU.
     * On the first {@code withHole} nodes one 1-GPU job is left out.
     */
    private static List<PlacedJob> fill(IntFunction<String> team, Set<Integer> withHoleCount) {
        int holes = withHoleCount.isEmpty() ? 0 : withHoleCount.iterator().next();
        List<PlacedJob> jobs = new ArrayList<>();
        for (int n = 0; n < NODES.size(); n++) {
            String node = NODES.get(n).name();
            String owner = team.apply(n);
            int[][] shape = n % 2 == 0
                    ? new int[][] {{0, 2}, {2, 2}, {4, 1}, {5, 1}, {6, 1}, {7, 1}}
                    : new int[][] {{0, 4}, {4, 1}, {5, 1}, {6, 1}};
            for (int[] s : shape) {
                if (n < holes && s[0] == 7 - (n % 2)) {
                    continue;
                }
                jobs.add(job(
                        owner,
                        node + "-" + s[0],
                        node,
                        IntStream.range(s[0], s[0] + s[1]).boxed().toList(),
                        1000,
                        new GpuRequest.WholeGpus(s[1])));
            }
            if (n % 2 == 1) {
                for (int half = 0; half < 2; half++) {
                    jobs.add(job(
                            owner, node + "-h" + half, node, List.of(7), 500, new GpuRequest.Fraction(500, 500, 1)));
                }
            }
        }
        return jobs;
    }

    private static PlacedJob job(String team, String name, String node, List<Integer> gpus, int milli, GpuRequest gpu) {
        JobSpec spec = new JobSpec(new JobId(team, name), gpu, 1000, 2048, Set.of(), 0, true, Duration.ZERO);
        return new PlacedJob(spec, node, gpus, milli, QuotaState.OVER_QUOTA, NOW.minus(Duration.ofHours(1)));
    }
}

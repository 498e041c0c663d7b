package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.SchedulingSnapshot;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Decision latency of the whole scheduler for gangs (quotas, placement, booking; the snapshot built per decision
 * as the service does): 500 nodes × 8 GPUs, a third of the GPUs held by single jobs of 1-4 GPUs, then 100 gangs of
 * 4 × 8 GPUs deployed one after another by two teams; prints p50/p99/max per decision and how many were placed.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=GangSchedulingBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class GangSchedulingBenchmark {

    @Test
    void hundredGangsOfFourTimesEightOnFiveHundredNodes() {
        List<NodeSpec> nodes = ClusterRun.nodes(500, 8);
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), nodes)
                .team("a", 2000)
                .team("b", 2000);
        Random random = new Random(42);
        for (int i = 0; i < 530; i++) {
            run.deploy(ClusterRun.job(i % 2 == 0 ? "a" : "b", "single-" + i, 1 + random.nextInt(4)));
        }
        int placed = timeGangs(run, "a", "b", "scheduler gang decisions (4 x 8 GPUs)");
        assertThat(placed).isPositive();
    }

    /**
     * The gang as claimant of a reclaim: team b (no guarantee) borrows the whole cluster with single jobs of 1-4 GPUs;
     * team a's gangs, within its guarantee, each evict the cheapest borrowed jobs that free four nodes.
     */
    @Test
    void hundredGangsReclaimingNodesFromABorrowingTeam() {
        List<NodeSpec> nodes = ClusterRun.nodes(500, 8);
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), nodes)
                .team("a", 4000)
                .team("b", 0);
        Random random = new Random(42);
        for (int i = 0; run.held("b") < 3990 && i < 4000; i++) {
            run.deploy(ClusterRun.job("b", "borrowed-" + i, 1 + random.nextInt(4)));
        }
        run.advance(Duration.ofHours(1));
        int placed = timeGangs(run, "a", "a", "gang reclaim decisions (4 x 8 GPUs, evicting borrowed jobs)");
        assertThat(placed).isEqualTo(100);
    }

    /** Times 100 gang decisions (after 20 unbooked warm-up decisions); prints p50/p99/max; returns how many placed. */
    private static int timeGangs(ClusterRun run, String evenTeam, String oddTeam, String what) {
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            run.scheduler.schedule(run.snapshot(), ClusterRun.gang(evenTeam, "warm-" + warmUp, 4, 4, 8));
        }
        long[] nanos = new long[100];
        int placed = 0;
        for (int i = 0; i < nanos.length; i++) {
            JobSpec gang = ClusterRun.gang(i % 2 == 0 ? evenTeam : oddTeam, "gang-" + i, 4, 4, 8);
            SchedulingSnapshot snapshot = run.snapshot();
            long start = System.nanoTime();
            Plan plan = run.scheduler.schedule(snapshot, gang);
            nanos[i] = System.nanoTime() - start;
            run.pending.put(gang.id(), new PendingJob(gang, run.now));
            run.apply(plan);
            placed += run.isPlaced(gang.team(), gang.id().name()) ? 1 : 0;
        }
        Arrays.sort(nanos);
        System.out.printf(
                Locale.ROOT,
                "%s on %d nodes, %d jobs running: p50 %.2f ms, p99 %.2f ms, max %.2f ms;" + " %d of %d gangs placed%n",
                what,
                run.nodes.size(),
                run.placed.size(),
                nanos[49] / 1e6,
                nanos[98] / 1e6,
                nanos[99] / 1e6,
                placed,
                nanos.length);
        return placed;
    }
}

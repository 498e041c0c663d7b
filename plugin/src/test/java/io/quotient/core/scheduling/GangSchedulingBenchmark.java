package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

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
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), nodes).team("a", 2000).team("b", 2000);
        Random random = new Random(42);
        for (int i = 0; i < 530; i++) {
            run.deploy(ClusterRun.job(i % 2 == 0 ? "a" : "b", "single-" + i, 1 + random.nextInt(4)));
        }
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            run.scheduler.schedule(run.snapshot(), ClusterRun.gang("a", "warm-" + warmUp, 4, 4, 8));
        }
        long[] nanos = new long[100];
        int placed = 0;
        for (int i = 0; i < nanos.length; i++) {
            JobSpec gang = ClusterRun.gang(i % 2 == 0 ? "a" : "b", "gang-" + i, 4, 4, 8);
            SchedulingSnapshot snapshot = run.snapshot();
            long start = System.nanoTime();
            Plan plan = run.scheduler.schedule(snapshot, gang);
            nanos[i] = System.nanoTime() - start;
            run.pending.put(gang.id(), new PendingJob(gang, run.now));
            run.apply(plan);
            placed += run.isPlaced(gang.team(), gang.id().name()) ? 1 : 0;
        }
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "scheduler gang decisions (4 x 8 GPUs) on %d nodes, %d jobs running: p50 %.2f ms,"
                        + " p99 %.2f ms, max %.2f ms; %d of %d gangs placed%n", nodes.size(), run.placed.size(),
                nanos[49] / 1e6, nanos[98] / 1e6, nanos[99] / 1e6, placed, nanos.length);
        assertThat(placed).isPositive();
    }
}

package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Decision latency of gang placement, one thread: 500 nodes × 8 GPUs (two models), a third of the GPUs taken by
 * single jobs of 1-4 GPUs, then 100 gangs of 4 × 8 GPUs decided and booked one after another with the default
 * policy; prints p50/p99/max per decision and how many gangs were placed.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=GangPlacementBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class GangPlacementBenchmark {

    @Test
    void hundredGangsOfFourTimesEightOnFiveHundredNodes() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            nodes.add(new NodeSpec("n" + i, 96_000, 1_024_000, 8, i % 5 == 0 ? "H100" : "A100", 81_920));
        }
        ClusterState state = new ClusterState(nodes);
        PlacementPolicy policy = PlacementPolicies.create("quotient", 42, TargetWorkload.typical());
        Random random = new Random(42);
        for (int i = 0; i < 500; i++) {
            policy.place(state, ResourceDemand.gpus(4_000, 16_000, 1 + random.nextInt(4), 1000, Set.of()))
                    .ifPresent(state::allocate);
        }
        GangPlacer placer = new GangPlacer(policy);
        GangDemand gang = GangDemand.of(ResourceDemand.gpus(32_000, 256_000, 8, 1000, Set.of()), 4);
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            placer.place(state.copy(), gang, PlacementPolicy.NodeFilter.ANY);
        }
        long[] nanos = new long[100];
        int placed = 0;
        for (int i = 0; i < nanos.length; i++) {
            long start = System.nanoTime();
            GangOutcome outcome = placer.place(state, gang, PlacementPolicy.NodeFilter.ANY);
            nanos[i] = System.nanoTime() - start;
            if (outcome instanceof GangOutcome.Placed p) {
                p.replicas().forEach(state::allocate);
                placed++;
            }
        }
        Arrays.sort(nanos);
        System.out.printf(
                Locale.ROOT,
                "gang decisions (4 x 8 GPUs) on %d nodes: p50 %.2f ms, p99 %.2f ms, max %.2f ms;"
                        + " %d of %d gangs placed%n",
                nodes.size(),
                nanos[49] / 1e6,
                nanos[98] / 1e6,
                nanos[99] / 1e6,
                placed,
                nanos.length);
        assertThat(placed).isPositive();
    }
}

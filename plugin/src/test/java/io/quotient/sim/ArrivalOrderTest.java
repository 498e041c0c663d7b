package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArrivalOrderTest {

    private static List<TracePod> trace(int n, int milli) {
        List<TracePod> pods = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            pods.add(new TracePod(String.format("pod-%03d", i), ResourceDemand.gpus(1_000, 1_000, 1, milli, Set.of())));
        }
        pods.add(new TracePod("cpu-only", ResourceDemand.cpuOnly(1_000, 1_000)));
        return pods;
    }

    private static long total(List<TracePod> pods) {
        return pods.stream().mapToLong(TracePod::gpuMilli).sum();
    }

    @Test
    void shufflesTheOriginalsThenAppendsDrawsUntilTheTargetIsReached() {
        List<TracePod> trace = trace(100, 500); // 50,000 milli
        List<TracePod> order = ArrivalOrder.of(trace, 42, 100_000, 1.3);
        assertThat(order.subList(0, trace.size())).containsExactlyInAnyOrderElementsOf(trace);
        assertThat(order.subList(0, trace.size())).isNotEqualTo(trace);
        assertThat(total(order)).isGreaterThanOrEqualTo(130_000);
        assertThat(total(order.subList(0, order.size() - 1))).isLessThan(130_000);
    }

    @Test
    void dropsRandomPodsFromATraceAboveTheTarget() {
        List<TracePod> trace = trace(100, 1000); // 100,000 milli
        List<TracePod> order = ArrivalOrder.of(trace, 42, 50_000, 1.3);
        assertThat(total(order)).isLessThanOrEqualTo(65_000).isGreaterThan(60_000);
        assertThat(trace).containsAll(order);
    }

    @Test
    void dependsOnlyOnTheSeedAndNotOnTheInputOrder() {
        List<TracePod> trace = trace(50, 300);
        List<TracePod> reversed = new ArrayList<>(trace);
        Collections.reverse(reversed);
        assertThat(ArrivalOrder.of(trace, 7, 20_000, 1.3)).isEqualTo(ArrivalOrder.of(reversed, 7, 20_000, 1.3));
        assertThat(ArrivalOrder.of(trace, 7, 20_000, 1.3)).isNotEqualTo(ArrivalOrder.of(trace, 8, 20_000, 1.3));
    }
}

package io.quotient.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What {@link ClusterState} records beyond free capacity: allocation kinds, GPU copies, versions. */
class ClusterStateKindsTest {

    private final ClusterState state = new ClusterState(List.of(new NodeSpec("a", 64_000, 256_000, 4, "T4", 16_384)));

    @Test
    void countsAllocationKindsAndForgetsReleasedOnes() {
        Allocation half = new Allocation(0, new int[] {0}, 500, 1_000, 1_000);
        Allocation two = new Allocation(0, new int[] {1, 2}, 1000, 1_000, 1_000);
        state.allocate(half);
        state.allocate(new Allocation(0, new int[] {0}, 300, 0, 0));
        state.allocate(two);
        state.allocate(new Allocation(0, new int[0], 0, 8_000, 1_000));
        assertThat(state.allocationKinds(0)).isEqualTo(Map.of(-1, 2, 2, 1));
        assertThat(state.allocationsOfKind(0, -1)).isEqualTo(2);
        assertThat(state.allocationsOfKind(0, 2)).isEqualTo(1);
        assertThat(state.allocationsOfKind(0, 1)).isZero();
        assertThat(state.allocationsOfKind(0, 0)).isZero();
        assertThat(state.allocationKindCount(0)).isEqualTo(2);
        state.release(half);
        state.release(two);
        assertThat(state.allocationKinds(0)).isEqualTo(Map.of(-1, 1));
        assertThatThrownBy(() -> state.allocationKinds(0).clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void countsOfARandomStreamOfAllocationsAndReleasesAreThoseOfAMap() {
        ClusterState wide = new ClusterState(List.of(new NodeSpec("w", 640_000, 2_560_000, 16, "H100", 81_920)));
        Random random = new Random(7);
        List<Allocation> held = new ArrayList<>();
        Map<Integer, Integer> expected = new HashMap<>();
        for (int step = 0; step < 2_000; step++) {
            if (!held.isEmpty() && random.nextInt(3) == 0) {
                Allocation a = held.remove(random.nextInt(held.size()));
                wide.release(a);
                expected.computeIfPresent(kind(a), (k, c) -> c > 1 ? c - 1 : null);
            } else {
                Allocation a = someAllocation(random, wide);
                if (a == null) {
                    continue;
                }
                wide.allocate(a);
                held.add(a);
                if (kind(a) != 0) {
                    expected.merge(kind(a), 1, Integer::sum);
                }
            }
            assertThat(wide.allocationKinds(0)).isEqualTo(expected);
            assertThat(wide.allocationKindCount(0)).isEqualTo(expected.size());
            for (int k = -16; k <= 16; k++) {
                assertThat(wide.allocationsOfKind(0, k)).isEqualTo(expected.getOrDefault(k, 0));
            }
        }
    }

    private static int kind(Allocation a) {
        return AllocationKinds.kindOf(a.gpuIndices().length, a.milliPerGpu());
    }

    /** Whole GPUs or a fraction on free GPUs of the node, or CPU only; null when nothing of the kind drawn fits. */
    private static Allocation someAllocation(Random random, ClusterState s) {
        int count = random.nextInt(5);
        int milli = random.nextBoolean() ? 1000 : 100 * (1 + random.nextInt(9));
        List<Integer> gpus = new ArrayList<>();
        for (int g = 0; g < 16 && gpus.size() < count; g++) {
            if (s.gpuFree(0, g) >= milli) {
                gpus.add(g);
            }
        }
        if (gpus.size() < count) {
            return null;
        }
        return new Allocation(0, gpus.stream().mapToInt(Integer::intValue).toArray(), count == 0 ? 0 : milli, 10, 10);
    }

    @Test
    void kindsSeparateWholeGpusFromFractionsByCount() {
        assertThat(AllocationKinds.kindOf(0, 0)).isZero();
        assertThat(AllocationKinds.kindOf(1, 1000)).isEqualTo(1);
        assertThat(AllocationKinds.kindOf(8, 1000)).isEqualTo(8);
        assertThat(AllocationKinds.kindOf(1, 250)).isEqualTo(-1);
        assertThat(AllocationKinds.kindOf(3, 500)).isEqualTo(-3);
    }

    @Test
    void copiesAreIndependent() {
        ClusterState copy = state.copy();
        copy.allocate(new Allocation(0, new int[] {3}, 1000, 0, 0));
        assertThat(state.allocationKinds(0)).isEmpty();
        assertThat(state.gpuFree(0, 3)).isEqualTo(1000);
        assertThat(copy.allocationKinds(0)).isEqualTo(Map.of(1, 1));
    }

    @Test
    void copiesFreeSharesAndBumpsTheVersionOnEveryChange() {
        long version = state.version(0);
        state.allocate(new Allocation(0, new int[] {1}, 400, 0, 0));
        assertThat(state.version(0)).isGreaterThan(version);
        int[] free = new int[4];
        state.copyGpuFree(0, free);
        assertThat(free).containsExactly(1000, 600, 1000, 1000);
    }
}

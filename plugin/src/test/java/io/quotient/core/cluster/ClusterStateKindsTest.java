package io.quotient.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
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
        state.release(half);
        state.release(two);
        assertThat(state.allocationKinds(0)).isEqualTo(Map.of(-1, 1));
        assertThatThrownBy(() -> state.allocationKinds(0).clear()).isInstanceOf(UnsupportedOperationException.class);
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

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where a fraction moves within its own node ({@link Destinations#sharedGpuOnNode}). */
class DestinationsTest {

    private static final ResourceDemand HALF = ResourceDemand.gpus(1000, 1024, 1, 500, Set.of());
    private static final long[] NONE_FREED = new long[4];

    /** What evictions freed per GPU, given in milli, in the units the search counts (GpuUnits: 81920 per milli). */
    private static long[] freed(int... milli) {
        long[] units = new long[milli.length];
        for (int g = 0; g < milli.length; g++) {
            units[g] = milli[g] * 81920L;
        }
        return units;
    }

    /** One 4-GPU node; GPU g used by {@code used[g]} milli. */
    private static ClusterState node(int... used) {
        ClusterState state = new ClusterState(List.of(new NodeSpec("node-0", 64000, 262144, 4, "A100", 81920)));
        for (int g = 0; g < used.length; g++) {
            if (used[g] > 0) {
                state.allocate(new Allocation(0, new int[] {g}, used[g], 0, 0));
            }
        }
        return state;
    }

    private static Allocation half(int gpu) {
        return new Allocation(0, new int[] {gpu}, 500, 1000, 1024);
    }

    @Test
    void aFractionJoinsTheTightestOtherSharedGpuThatHoldsIt() {
        // the moving half was on GPU 0 (released); GPU 1 has 700 free, GPU 2 500 free, GPU 3 is empty
        ClusterState state = node(0, 300, 500, 0);
        assertThat(Destinations.sharedGpuOnNode(state, 0, HALF, half(0), NONE_FREED))
                .hasValueSatisfying(a -> assertThat(a.gpuIndices()).containsExactly(2));
    }

    @Test
    void neverTheGpuItLeftNorAnEmptyOneNorOneWithTooLittleFree() {
        // GPU 0 (left) still holds another fraction; GPU 1 has 400 free; GPUs 2 and 3 are empty
        ClusterState state = node(500, 600, 0, 0);
        assertThat(Destinations.sharedGpuOnNode(state, 0, HALF, half(0), NONE_FREED))
                .isEmpty();
    }

    @Test
    void aWholeGpuJobHasNoSharedGpuToJoin() {
        ClusterState state = node(0, 300, 0, 0);
        ResourceDemand whole = ResourceDemand.gpus(1000, 1024, 1, 1000, Set.of());
        assertThat(Destinations.sharedGpuOnNode(
                        state, 0, whole, new Allocation(0, new int[] {0}, 1000, 1000, 1024), NONE_FREED))
                .isEmpty();
    }

    @Test
    void neverOntoWhatAnEvictionOfTheSameSearchFreed() {
        // GPU 1 has 500 free only because the search evicted a 500 there: a plan moves before it evicts
        ClusterState state = node(0, 500, 0, 0);
        assertThat(Destinations.sharedGpuOnNode(state, 0, HALF, half(0), freed(0, 500, 0, 0)))
                .isEmpty();
        assertThat(Destinations.sharedGpuOnNode(state, 0, HALF, half(0), freed(0, 250, 0, 0)))
                .isEmpty();
        assertThat(Destinations.sharedGpuOnNode(state, 0, HALF, half(0), NONE_FREED))
                .hasValueSatisfying(a -> assertThat(a.gpuIndices()).containsExactly(1));
    }
}

package io.quotient.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A GPU's free capacity counted exactly ({@link GpuUnits}): fractions and MiB requests add up without rounding. */
class ExactGpuMemoryTest {

    private static NodeSpec node(String name, long gpuMib) {
        return new NodeSpec(name, 64_000, 256_000, 1, "NVIDIA", gpuMib);
    }

    private static ResourceDemand mib(long mib) {
        return new ResourceDemand(100, 100, 1, 0, mib, Set.of());
    }

    private static ResourceDemand fraction(int milli) {
        return ResourceDemand.gpus(100, 100, 1, milli, Set.of());
    }

    private static Allocation take(ClusterState state, int node, ResourceDemand demand) {
        Allocation a = Allocation.of(demand, node, state.node(node), new int[] {0});
        state.allocate(a);
        return a;
    }

    @Test
    void aFractionAndMibSharesSumExactlyToTheCardAndOneMibMoreDoesNotFit() {
        // 24576 MiB: a 0.5 fraction is 12288 MiB, then 8192 and 4096 MiB fill it; rounded up to thousandths the
        // MiB shares would be 334 + 167, one more than the 500 left
        ClusterState state = new ClusterState(List.of(node("n", 24576)));
        take(state, 0, fraction(500));
        take(state, 0, mib(8192));
        assertThat(state.holds(0, 0, mib(4097))).isFalse();
        assertThat(state.fits(0, mib(4096))).isTrue();
        Allocation last = take(state, 0, mib(4096));
        assertThat(state.gpuFreeUnits(0, 0)).isZero();
        assertThat(state.gpuFree(0, 0)).isZero();
        assertThat(state.fits(0, mib(1))).isFalse();
        assertThat(state.fits(0, fraction(1))).isFalse();
        state.release(last);
        assertThat(state.fits(0, mib(4096))).isTrue();
        assertThat(state.fits(0, mib(4097))).isFalse();
    }

    @Test
    void aMibShareChargedRoundedUpButTakingExactlyItsMemory() {
        ClusterState state = new ClusterState(List.of(node("n", 24576)));
        Allocation a = take(state, 0, mib(8192));
        assertThat(a.milliPerGpu()).isEqualTo(334); // what quotas charge: the share covers the memory
        assertThat(a.gpuMemoryMib()).isEqualTo(8192);
        assertThat(state.gpuFreeUnits(0, 0)).isEqualTo(16384 * 1000L);
        assertThat(state.gpuFree(0, 0)).isEqualTo(666); // 666.67 rounded down
        take(state, 0, mib(8192));
        take(state, 0, mib(8192));
        assertThat(state.gpuFreeUnits(0, 0)).isZero();
        assertThatThrownBy(() -> state.allocate(Allocation.of(mib(1), 0, state.node(0), new int[] {0})))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void oneMibRequestTakesWhatEachGpuSizeHolds() {
        // 8192 MiB is a third of a 24576 MiB GPU (three fit), half of a 16384 MiB one (two fit) and more than an
        // 8000 MiB one holds
        ClusterState state = new ClusterState(List.of(node("l4", 24576), node("v100", 16384), node("small", 8000)));
        ResourceDemand demand = mib(8192);
        assertThat(demand.milliOn(state.node(0))).isEqualTo(334);
        assertThat(demand.milliOn(state.node(1))).isEqualTo(500);
        assertThat(state.fits(2, demand)).isFalse();
        assertThat(placedOn(state, 0, demand)).isEqualTo(3);
        assertThat(placedOn(state, 1, demand)).isEqualTo(2);
        assertThat(placedOn(state, 2, demand)).isZero();
    }

    @Test
    void aMibRequestNeverFitsAGpuOfUnknownMemoryWhereFractionsStillDo() {
        ClusterState state = new ClusterState(List.of(node("unknown", 0)));
        assertThat(state.fits(0, mib(1))).isFalse();
        take(state, 0, fraction(600));
        assertThat(state.gpuFree(0, 0)).isEqualTo(400);
        assertThat(state.fits(0, fraction(400))).isTrue();
        assertThat(state.fits(0, fraction(401))).isFalse();
    }

    /** How many of the demand the node takes one after another. */
    private static int placedOn(ClusterState state, int node, ResourceDemand demand) {
        int placed = 0;
        while (state.fits(node, demand)) {
            take(state, node, demand);
            placed++;
        }
        return placed;
    }
}

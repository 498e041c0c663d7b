package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.node;
import static io.quotient.core.placement.Clusters.use;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** F_n(M) of PACKING.md on hand-computed nodes. */
class FragmentationMeasureTest {

    // A: 1 whole GPU with 4 CPUs (p .5); B: half a GPU with 2 CPUs (p .3); C: CPU-only (p .2)
    private final FragmentationMeasure measure = new FragmentationMeasure(new TargetWorkload(List.of(
            new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 0.5),
            new TargetWorkload.Shape(2_000, 1, 500, Set.of(), 0.3),
            new TargetWorkload.Shape(8_000, 0, 0, Set.of(), 0.2))));

    @Test
    void countsOnlyTooSmallGpusForShapesThatFit() {
        // R = 1900; A: 600 + 300 + 0 stranded; B: 300 stranded; C (CPU-only): all 1900
        double f = measure.of("T4", 10_000, new int[] {1000, 600, 300, 0}, 4);
        assertThat(f).isCloseTo(0.5 * 900 + 0.3 * 300 + 0.2 * 1900, within(1e-9));
    }

    @Test
    void strandsEverythingForAShapeTheNodeLacksCpuFor() {
        double f = measure.of("T4", 3_000, new int[] {1000, 600, 300, 0}, 4);
        assertThat(f).isCloseTo(0.5 * 1900 + 0.3 * 300 + 0.2 * 1900, within(1e-9));
    }

    @Test
    void strandsEverythingForAShapeWithTooFewLargeEnoughGpus() {
        FragmentationMeasure twoWhole = new FragmentationMeasure(new TargetWorkload(List.of(
                new TargetWorkload.Shape(1_000, 2, 1000, Set.of(), 1.0))));
        assertThat(twoWhole.of("T4", 10_000, new int[] {1000, 900}, 2)).isEqualTo(1900);
        assertThat(twoWhole.of("T4", 10_000, new int[] {1000, 1000, 900}, 3)).isEqualTo(900);
    }

    @Test
    void strandsEverythingOnANodeOfAModelTheShapeDoesNotAllow() {
        FragmentationMeasure onlyV100 = new FragmentationMeasure(new TargetWorkload(List.of(
                new TargetWorkload.Shape(1_000, 1, 500, Set.of("V100"), 1.0))));
        assertThat(onlyV100.of("T4", 10_000, new int[] {1000, 200}, 2)).isEqualTo(1200);
        assertThat(onlyV100.of("V100", 10_000, new int[] {1000, 200}, 2)).isEqualTo(200);
    }

    @Test
    void aNodeWithNoIdleGpuHasNoFragmentation() {
        assertThat(measure.of("T4", 0, new int[] {0, 0}, 2)).isZero();
    }

    @Test
    void readsNodesFromTheClusterStateAndSumsThem() {
        ClusterState state = cluster(node("a", 2, "T4"), node("b", 1, "T4"));
        use(state, 0, 0, 700);
        // node a: [300, 1000], 64 CPUs: A strands 300, B strands 300, C strands 1300
        double a = 0.5 * 300 + 0.3 * 300 + 0.2 * 1300;
        // node b: [1000]: A and B strand nothing, C strands 1000
        double b = 0.2 * 1000;
        assertThat(measure.of(state, 0)).isCloseTo(a, within(1e-9));
        assertThat(measure.clusterFragmentation(state)).isCloseTo(a + b, within(1e-9));
    }
}

package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ShapeGroupsTest {

    private static TargetWorkload.Shape shape(long cpu, int gpus, int milli, double p) {
        return new TargetWorkload.Shape(cpu, gpus, milli, Set.of(), p);
    }

    // two groups: 1 x 500 (CPU 2, 4, 4, 8 cores) and 2 x 1000 (CPU 6 cores)
    private final ShapeGroups groups = new ShapeGroups(List.of(
            shape(4_000, 1, 500, 0.1),
            shape(6_000, 2, 1000, 0.3),
            shape(2_000, 1, 500, 0.2),
            shape(8_000, 1, 500, 0.15),
            shape(4_000, 1, 500, 0.25)));

    @Test
    void groupsShapesByWhatTheyAskOfTheGpusInOrderOfFirstAppearance() {
        assertThat(groups.size()).isEqualTo(2);
        assertThat(groups.gpuMilli(0)).isEqualTo(500);
        assertThat(groups.gpuCount(1)).isEqualTo(2);
        assertThat(groups.mass(0)).isCloseTo(0.7, within(1e-12));
        assertThat(groups.mass(1)).isCloseTo(0.3, within(1e-12));
    }

    @Test
    void theMassLackingCpuCountsOnlyShapesAskingMoreThanIsFree() {
        assertThat(groups.massNeedingMoreCpu(0, 0)).isCloseTo(0.7, within(1e-12));
        assertThat(groups.massNeedingMoreCpu(0, 1_999)).isCloseTo(0.7, within(1e-12));
        assertThat(groups.massNeedingMoreCpu(0, 2_000)).isCloseTo(0.5, within(1e-12));
        // both 4-core shapes fit with exactly 4 cores free
        assertThat(groups.massNeedingMoreCpu(0, 4_000)).isCloseTo(0.15, within(1e-12));
        assertThat(groups.massNeedingMoreCpu(0, 7_999)).isCloseTo(0.15, within(1e-12));
        assertThat(groups.massNeedingMoreCpu(0, 8_000)).isZero();
        assertThat(groups.massNeedingMoreCpu(1, 5_999)).isCloseTo(0.3, within(1e-12));
        assertThat(groups.massNeedingMoreCpu(1, 6_000)).isZero();
    }

    @Test
    void countsTheGpusWithTheGroupsShareFreeAndTheIdleOfTheOthers() {
        int[] free = {1000, 500, 499, 0, 1000};
        assertThat(groups.fittingGpus(0, free, 4)).isEqualTo(2);
        assertThat(groups.tooSmall(0, free, 4)).isEqualTo(499);
        assertThat(groups.fittingGpus(1, free, 5)).isEqualTo(2);
        assertThat(groups.tooSmall(1, free, 5)).isEqualTo(999);
    }
}

package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TargetWorkloadTest {

    private static List<ResourceDemand> copies(ResourceDemand d, int n) {
        return Collections.nCopies(n, d);
    }

    @Test
    void keepsTheSmallestPrefixOfFrequentShapesCoveringNinetyFivePercent() {
        ResourceDemand x = ResourceDemand.gpus(4_000, 1_000, 1, 1000, Set.of());
        ResourceDemand y = ResourceDemand.gpus(2_000, 1_000, 1, 500, Set.of());
        ResourceDemand z = ResourceDemand.cpuOnly(8_000, 1_000);
        ResourceDemand w = ResourceDemand.gpus(32_000, 1_000, 8, 1000, Set.of());
        List<ResourceDemand> trace = new ArrayList<>();
        trace.addAll(copies(w, 4));
        trace.addAll(copies(y, 30));
        trace.addAll(copies(x, 60));
        trace.addAll(copies(z, 6));

        TargetWorkload m = TargetWorkload.fromDemands(trace);

        assertThat(m.shapes()).extracting(TargetWorkload.Shape::gpuCount).containsExactly(1, 1, 0);
        assertThat(m.shapes())
                .extracting(TargetWorkload.Shape::probability)
                .containsExactly(60 / 96.0, 30 / 96.0, 6 / 96.0);
    }

    @Test
    void shapesIgnoreMemoryButKeepModels() {
        List<ResourceDemand> trace = List.of(
                ResourceDemand.gpus(4_000, 1_000, 1, 500, Set.of()),
                ResourceDemand.gpus(4_000, 9_000, 1, 500, Set.of()),
                ResourceDemand.gpus(4_000, 1_000, 1, 500, Set.of("T4")));
        TargetWorkload m = TargetWorkload.fromDemands(trace);
        assertThat(m.shapes()).hasSize(2);
        assertThat(m.shapes().get(0).probability()).isCloseTo(2 / 3.0, within(1e-12));
        assertThat(m.shapes().get(1).allowedModels()).containsExactly("T4");
    }

    @Test
    void rejectsEmptyTracesAndMibDemands() {
        assertThatThrownBy(() -> TargetWorkload.fromDemands(List.of())).isInstanceOf(IllegalArgumentException.class);
        ResourceDemand mib = new ResourceDemand(1_000, 1_000, 1, 0, 4_000, Set.of());
        assertThatThrownBy(() -> TargetWorkload.fromDemands(List.of(mib)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MiB");
    }

    @Test
    void normalisesProbabilities() {
        TargetWorkload m = new TargetWorkload(List.of(
                new TargetWorkload.Shape(1, 1, 100, Set.of(), 3), new TargetWorkload.Shape(1, 0, 0, Set.of(), 1)));
        assertThat(m.shapes()).extracting(TargetWorkload.Shape::probability).containsExactly(0.75, 0.25);
        assertThatThrownBy(() -> new TargetWorkload(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TargetWorkload.Shape(1, 1, 0, Set.of(), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void typicalWorkloadMixesFractionsWholeGpusMultiGpuAndCpuOnly() {
        TargetWorkload typical = TargetWorkload.typical();
        assertThat(typical.shapes().stream()
                        .mapToDouble(TargetWorkload.Shape::probability)
                        .sum())
                .isCloseTo(1.0, within(1e-9));
        assertThat(typical.shapes())
                .anyMatch(TargetWorkload.Shape::cpuOnly)
                .anyMatch(s -> s.gpuCount() == 1 && s.gpuMilli() < 1000)
                .anyMatch(s -> s.gpuCount() == 8);
    }
}

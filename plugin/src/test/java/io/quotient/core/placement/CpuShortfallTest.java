package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The two forms of {@link CpuShortfall}: the mix's CPU per GPU where CPU is spare, class by class where it is short. */
class CpuShortfallTest {

    // whole-GPU jobs asking 4 and 12 CPUs, equally often: 8 CPUs per GPU on average (8 CPU milli per GPU milli)
    private final List<TargetWorkload.Shape> shapes = List.of(
            new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 1),
            new TargetWorkload.Shape(12_000, 1, 1000, Set.of(), 1));

    @Test
    void withCpuToSpareANodeIsShortOnlyBelowTheMixsCpuPerGpu() {
        CpuShortfall spare = new CpuShortfall(shapes, 0);
        assertThat(spare.of(2000, 0, 16_000)).isZero();
        assertThat(spare.of(2000, 0, 8_000)).isCloseTo(1000, within(1e-9));
        // the slivers count: this form sees all the idle milli
        assertThat(spare.of(2000, 500, 8_000)).isCloseTo(1000, within(1e-9));
    }

    @Test
    void whereCpuIsShortANodeWithCpuForTheTypicalJobIsShortByTheHungryShapesShare() {
        // excess 1: the shapes ask 5 and 13 CPU milli per GPU milli
        CpuShortfall shortOfCpu = new CpuShortfall(shapes, 1);
        // 20 CPUs for 2 GPUs: 10 per GPU, enough for the 5s, not for the 13s, which take half the demand
        assertThat(shortOfCpu.of(2000, 0, 20_000)).isCloseTo(0.5 * (2000 - 20_000 / 13.0), within(1e-9));
        // the single figure (9 per GPU milli) would call this node not short at all
        assertThat(new CpuShortfall(shapes, 0).of(2000, 0, 20_000)).isZero();
        // no CPU: everything the node could fill is short; CPU for the hungriest: nothing
        assertThat(shortOfCpu.of(2000, 0, 0)).isCloseTo(2000, within(1e-9));
        assertThat(shortOfCpu.of(2000, 0, 26_000)).isZero();
    }

    @Test
    void whereCpuIsShortTheSliversAreNotCountedAgain() {
        CpuShortfall shortOfCpu = new CpuShortfall(shapes, 1);
        assertThat(shortOfCpu.of(2000, 500, 6_000)).isCloseTo(shortOfCpu.of(1500, 0, 6_000), within(1e-9));
        assertThat(shortOfCpu.of(2000, 2000, 0)).isZero();
    }

    @Test
    void whereCpuIsShortTheLastCoresOfANodeCostMoreThanTheFirst() {
        CpuShortfall shortOfCpu = new CpuShortfall(shapes, 1);
        double firstFourCores = shortOfCpu.of(2000, 0, 20_000) - shortOfCpu.of(2000, 0, 24_000);
        double lastFourCores = shortOfCpu.of(2000, 0, 0) - shortOfCpu.of(2000, 0, 4_000);
        assertThat(firstFourCores).isPositive();
        assertThat(lastFourCores).isGreaterThan(firstFourCores);
        // never negative, and never more than the milli the node could fill
        for (long cpu = 0; cpu <= 40_000; cpu += 1_000) {
            assertThat(shortOfCpu.of(2000, 300, cpu)).isBetween(0.0, 1700.0);
        }
    }

    @Test
    void whereCpuIsShortTheFractionsCountAsOneClassWithTheirMixedCpu() {
        // 250-milli jobs with 8 CPUs (32 per GPU) and 810-milli jobs with 3 (3.7 per GPU), equally often: they share
        // GPUs, so a GPU filled by them brings 11,000 CPU milli per 1,060 GPU milli, 10.38 per GPU milli
        CpuShortfall fractions = new CpuShortfall(
                List.of(
                        new TargetWorkload.Shape(8_000, 1, 250, Set.of(), 1),
                        new TargetWorkload.Shape(3_000, 1, 810, Set.of(), 1)),
                1);
        double pooled = 11_000 / 1_060.0 + 1;
        // 20 CPUs for one idle GPU: enough for the mix, though not for a GPU of 250s alone
        assertThat(fractions.of(1000, 0, 20_000)).isZero();
        assertThat(fractions.of(1000, 0, 5_000)).isCloseTo(1000 - 5_000 / pooled, within(1e-9));
        // whole-GPU jobs stay classes of their own beside the pooled fractions
        CpuShortfall mixed = new CpuShortfall(
                List.of(
                        new TargetWorkload.Shape(8_000, 1, 250, Set.of(), 4),
                        new TargetWorkload.Shape(3_000, 1, 810, Set.of(), 4 * 250 / 810.0),
                        new TargetWorkload.Shape(30_000, 1, 1000, Set.of(), 2)),
                1);
        // fractions: 1,000 + 1,000 milli with 32,000 + 3,704 CPU milli, 18.9 per milli with the excess; whole jobs 31
        assertThat(mixed.of(1000, 0, 25_000)).isCloseTo(0.5 * (1000 - 25_000 / 31.0), within(1e-9));
    }

    @Test
    void aWorkloadWithoutGpuJobsLeavesNoGpuShort() {
        assertThat(new CpuShortfall(List.of(), 1).of(2000, 0, 0)).isZero();
    }
}

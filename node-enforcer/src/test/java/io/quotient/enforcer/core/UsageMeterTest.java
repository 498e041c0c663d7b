package io.quotient.enforcer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The meter against scripted busy and idle periods whose GPU-seconds are known. */
class UsageMeterTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final long GIB = 1L << 30;
    private static final PodRef NOTEBOOK = new PodRef("team-a", "notebook", "uid-notebook");
    private static final PodRef TRAINER = new PodRef("team-b", "trainer", "uid-trainer");

    private final UsageMeter meter =
            new UsageMeter(new UsageMeter.Settings(Duration.ofSeconds(3), Duration.ofSeconds(60)));

    private static PodGpuReading reading(PodRef pod, double percent, long memory) {
        return new PodGpuReading(pod, "GPU-0", UtilizationSource.PROCESS, percent, memory);
    }

    private static Instant at(double seconds) {
        return T0.plusMillis(Math.round(seconds * 1000));
    }

    private static NodeUsage.GpuUsage only(NodeUsage usage, PodRef pod) {
        return usage.pods().stream()
                .filter(p -> p.pod().equals(pod))
                .findFirst()
                .orElseThrow()
                .gpus()
                .get(0);
    }

    /** One reading a second from {@code from} (exclusive) to {@code to} (inclusive). */
    private void everySecond(int from, int to, PodRef pod, double percent, long memory) {
        for (int t = from + 1; t <= to; t++) {
            meter.record(List.of(reading(pod, percent, memory)), at(t));
        }
    }

    @Test
    void busyThenIdleAddsUpToTheGpuSecondsUsed() {
        meter.record(List.of(reading(NOTEBOOK, 80, 2 * GIB)), at(0)); // first seen: counts from here
        everySecond(0, 10, NOTEBOOK, 80, 2 * GIB);
        everySecond(10, 20, NOTEBOOK, 0, 2 * GIB);

        NodeUsage.GpuUsage usage = only(meter.report(at(20)), NOTEBOOK);

        assertThat(usage.totals().busyGpuSeconds()).isCloseTo(8.0, within(1e-9));
        assertThat(usage.totals().presentSeconds()).isCloseTo(20.0, within(1e-9));
        assertThat(usage.totals().measuredSeconds()).isCloseTo(20.0, within(1e-9));
        assertThat(usage.totals().countingSince()).isEqualTo(at(0));
        assertThat(usage.window().utilizationPercent()).isCloseTo(40.0, within(1e-9));
        assertThat(usage.window().seconds()).isCloseTo(20.0, within(1e-9));
    }

    @Test
    void aWindowHasItsOwnMeansAndTheTotalsCarryOn() {
        meter.record(List.of(reading(NOTEBOOK, 50, GIB)), at(0));
        everySecond(0, 10, NOTEBOOK, 50, GIB);
        NodeUsage first = meter.report(at(10));
        meter.closeWindow(at(10));
        everySecond(10, 12, NOTEBOOK, 100, 3 * GIB);
        everySecond(12, 14, NOTEBOOK, 100, GIB);

        NodeUsage second = meter.report(at(14));
        NodeUsage.GpuUsage usage = only(second, NOTEBOOK);

        assertThat(first.windowStart()).isEqualTo(at(0));
        assertThat(second.windowStart()).isEqualTo(at(10));
        assertThat(second.windowEnd()).isEqualTo(at(14));
        assertThat(second.samples()).isEqualTo(4);
        assertThat(usage.window().utilizationPercent()).isCloseTo(100.0, within(1e-9));
        assertThat(usage.window().memoryMeanBytes()).isEqualTo(2 * GIB);
        assertThat(usage.window().memoryPeakBytes()).isEqualTo(3 * GIB);
        assertThat(usage.totals().busyGpuSeconds()).isCloseTo(5.0 + 4.0, within(1e-9));
        assertThat(usage.totals().memoryByteSeconds()).isCloseTo((10.0 * GIB) + 2 * 3.0 * GIB + 2.0 * GIB, within(1.0));
    }

    @Test
    void aPodThatArrivesLaterCountsFromItsFirstReading() {
        for (int t = 0; t <= 10; t++) {
            meter.record(
                    t < 5
                            ? List.of(reading(NOTEBOOK, 50, 0))
                            : List.of(reading(NOTEBOOK, 50, 0), reading(TRAINER, 100, GIB)),
                    at(t));
        }

        NodeUsage usage = meter.report(at(10));

        assertThat(only(usage, NOTEBOOK).totals().presentSeconds()).isCloseTo(10.0, within(1e-9));
        assertThat(only(usage, TRAINER).totals().countingSince()).isEqualTo(at(5));
        assertThat(only(usage, TRAINER).totals().presentSeconds()).isCloseTo(5.0, within(1e-9));
        assertThat(only(usage, TRAINER).totals().busyGpuSeconds()).isCloseTo(5.0, within(1e-9));
    }

    @Test
    void aStallOrAnUnreadableGpuIsNotCounted() {
        meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(0));
        meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(1));
        meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(11)); // 10 s later: longer than maxGap
        meter.skip(at(12)); // the GPUs could not be read
        meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(13));

        NodeUsage.GpuUsage usage = only(meter.report(at(13)), NOTEBOOK);

        assertThat(usage.totals().presentSeconds()).isCloseTo(2.0, within(1e-9));
        assertThat(usage.totals().busyGpuSeconds()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void anUnmeasuredGpuCountsTimeAndMemoryButNoUse() {
        PodGpuReading mig = new PodGpuReading(TRAINER, "MIG-1", UtilizationSource.UNAVAILABLE, -1, 5 * GIB);
        meter.record(List.of(mig), at(0));
        meter.record(List.of(mig), at(2));

        NodeUsage.GpuUsage usage = meter.report(at(2)).pods().get(0).gpus().get(0);

        assertThat(usage.source()).isEqualTo(UtilizationSource.UNAVAILABLE);
        assertThat(usage.window().utilizationPercent()).isEqualTo(-1);
        assertThat(usage.totals().presentSeconds()).isCloseTo(2.0, within(1e-9));
        assertThat(usage.totals().measuredSeconds()).isZero();
        assertThat(usage.totals().busyGpuSeconds()).isZero();
        assertThat(usage.window().memoryMeanBytes()).isEqualTo(5 * GIB);
    }

    @Test
    void aPodThatLeftKeepsItsLastTotalsForTheRetentionThenGoes() {
        meter.record(List.of(reading(NOTEBOOK, 100, 0), reading(TRAINER, 30, 0)), at(0));
        meter.record(List.of(reading(NOTEBOOK, 100, 0), reading(TRAINER, 30, 0)), at(1));
        for (int t = 2; t <= 30; t++) {
            meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(t)); // the trainer is gone
        }
        meter.closeWindow(at(30));
        NodeUsage kept = meter.report(at(31));
        assertThat(only(kept, TRAINER).totals().busyGpuSeconds()).isCloseTo(0.3, within(1e-9));
        assertThat(only(kept, TRAINER).window().seconds()).isZero();

        for (int t = 31; t <= 70; t++) {
            meter.record(List.of(reading(NOTEBOOK, 100, 0)), at(t));
        }
        meter.closeWindow(at(70));

        assertThat(meter.report(at(71)).pods())
                .extracting(NodeUsage.PodUsage::pod)
                .containsExactly(NOTEBOOK);
    }
}

package io.quotient.enforcer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportScheduleTest {

    private static final Instant T0 = Instant.parse("2026-11-23T12:00:00Z");
    private final ReportSchedule schedule = new ReportSchedule(Duration.ofSeconds(10), Duration.ofSeconds(30));

    private static NodeReport report(boolean ready, long usedMib, Instant at) {
        return new NodeReport(
                ready,
                ready ? "" : "GPU lost",
                at,
                "550.54.15",
                List.of(new NodeReport.Gpu(0, "GPU-1", "Tesla T4", 15360, usedMib, 15360 - usedMib)));
    }

    @Test
    void theFirstReportAndAReadinessChangeArePublishedAtOnce() {
        NodeReport first = report(true, 0, T0);
        assertThat(schedule.shouldPublish(first, null, Instant.EPOCH)).isTrue();
        assertThat(schedule.shouldPublish(report(false, 0, T0.plusMillis(500)), first, T0))
                .isTrue();
    }

    @Test
    void usageChangesArePublishedAtMostEveryMinInterval() {
        NodeReport last = report(true, 0, T0);
        assertThat(schedule.shouldPublish(report(true, 2048, T0.plusSeconds(3)), last, T0))
                .isFalse();
        assertThat(schedule.shouldPublish(report(true, 2048, T0.plusSeconds(10)), last, T0))
                .isTrue();
    }

    @Test
    void anUnchangedReportIsRepublishedOnlyWhenItWouldGetOld() {
        NodeReport last = report(true, 0, T0);
        assertThat(schedule.shouldPublish(report(true, 0, T0.plusSeconds(29)), last, T0))
                .isFalse();
        assertThat(schedule.shouldPublish(report(true, 0, T0.plusSeconds(30)), last, T0))
                .isTrue();
    }
}

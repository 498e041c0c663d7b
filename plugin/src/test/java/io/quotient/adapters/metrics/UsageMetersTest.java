package io.quotient.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageCounters;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class UsageMetersTest {

    private static final LocalDate DAY = LocalDate.parse("2026-12-01");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicReference<List<JobUsageRecord>> records = new AtomicReference<>(List.of());
    private final UsageMeters meters = new UsageMeters(registry, records::get, () -> Map.of("vision", "research"));

    private static JobUsageRecord record(double inQuota, double borrowed, double busy) {
        Instant at = Instant.parse("2026-12-01T00:00:00Z");
        double allocated = inQuota + borrowed;
        return new JobUsageRecord(
                new JobId("vision", "train"),
                at,
                at,
                Map.of(DAY, new UsageCounters(inQuota, borrowed, allocated, 0, busy, allocated, allocated, 0)),
                Map.of());
    }

    private double value(String name, String state) {
        FunctionCounter counter = registry.find(name)
                .tags("team", "vision", "department", "research", "quota_state", state)
                .functionCounter();
        assertThat(counter).as(name + "{" + state + "}").isNotNull();
        return counter.count();
    }

    @Test
    void publishesTheRecordsTotalsPerQuotaStateAndNeverLessThanBefore() {
        assertThat(registry.find("quotient.gpu.allocated.seconds").functionCounter())
                .as("no records, no series")
                .isNull();

        records.set(List.of(record(300, 100, 200)));
        meters.refresh();
        assertThat(value("quotient.gpu.allocated.seconds", "in_quota")).isEqualTo(300);
        assertThat(value("quotient.gpu.allocated.seconds", "borrowed")).isEqualTo(100);
        assertThat(value("quotient.gpu.used.seconds", "in_quota")).isEqualTo(150);
        assertThat(value("quotient.gpu.used.seconds", "borrowed")).isEqualTo(50);

        // today's quota shares shift: the borrowed part of use would fall from 50 to 40; the counter holds at 50
        records.set(List.of(record(400, 100, 200)));
        meters.refresh();
        assertThat(value("quotient.gpu.allocated.seconds", "in_quota")).isEqualTo(400);
        assertThat(value("quotient.gpu.used.seconds", "in_quota")).isEqualTo(160);
        assertThat(value("quotient.gpu.used.seconds", "borrowed"))
                .as("a counter never goes down")
                .isEqualTo(50);
    }
}

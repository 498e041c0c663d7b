package io.quotient.adapters.k8s.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.PodCounters;
import io.quotient.core.usage.UsageCounters;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageRecordCodecTest {

    @Test
    void aRecordReadsBackExactly() {
        Instant t = Instant.parse("2026-12-01T10:00:00.123456Z");
        JobUsageRecord record = new JobUsageRecord(
                new JobId("vision", "note\"book"),
                t,
                t.plusSeconds(90),
                Map.of(LocalDate.parse("2026-12-01"), new UsageCounters(1.5, 2.25, 4.0, 3e9, 0.1, 90, 45, 1024.5)),
                Map.of("node-a/uid-1/GPU-1", new PodCounters(t, 90, 45, 12.75, 2048)),
                Map.of(Instant.parse("2026-12-01T10:00:00Z"), new UsageCounters(1.5, 2.25, 4.0, 3e9, 0.1, 90, 45, 1)));

        assertThat(UsageRecordCodec.decode(UsageRecordCodec.encode(record))).isEqualTo(record);
    }

    @Test
    void eightDaysOfHoursFitWellInOneConfigMap() {
        Instant start = Instant.parse("2026-12-01T00:00:00Z");
        Map<Instant, UsageCounters> hours = new HashMap<>();
        for (int h = 0; h < 24 * JobUsageRecord.HOURLY_DAYS; h++) {
            // values with all their digits, as real counters have
            hours.put(
                    start.plusSeconds(3600L * h),
                    new UsageCounters(
                            3599.123456789,
                            1.0 / 3,
                            7198.24691357,
                            2.9e8 / 7,
                            1234.5678901,
                            7198.2469,
                            7190.1,
                            1.1e7 / 3));
        }
        JobUsageRecord record =
                new JobUsageRecord(new JobId("vision", "trainer"), start, start, Map.of(), Map.of(), hours);

        String text = UsageRecordCodec.encode(record);

        assertThat(text.length()).as("a ConfigMap holds at most 1 MiB").isLessThan(100 * 1024);
        assertThat(UsageRecordCodec.decode(text).hours()).isEqualTo(hours);
    }

    @Test
    void aRecordStoredBeforeHourlyCountersReadsWithNoHours() {
        String stored = "{\"version\":1,\"team\":\"vision\",\"job\":\"nb\",\"trackingSince\":\"2026-12-01T10:00:00Z\","
                + "\"asOf\":\"2026-12-01T10:01:00Z\",\"days\":{},\"baselines\":{}}";

        JobUsageRecord record = UsageRecordCodec.decode(stored);

        assertThat(record.hours()).isEmpty();
        assertThat(record.asOf()).isEqualTo(Instant.parse("2026-12-01T10:01:00Z"));
    }

    @Test
    void somethingElseIsRefusedWithWhy() {
        assertThatThrownBy(() -> UsageRecordCodec.decode("{\"version\": 2}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> UsageRecordCodec.decode("not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a usage record");
    }
}

package io.quotient.adapters.k8s.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.PodCounters;
import io.quotient.core.usage.UsageCounters;
import java.time.Instant;
import java.time.LocalDate;
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
                Map.of("node-a/uid-1/GPU-1", new PodCounters(t, 90, 45, 12.75, 2048)));

        assertThat(UsageRecordCodec.decode(UsageRecordCodec.encode(record))).isEqualTo(record);
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

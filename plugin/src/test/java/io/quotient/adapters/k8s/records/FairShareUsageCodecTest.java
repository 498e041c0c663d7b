package io.quotient.adapters.k8s.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.UsageRecord;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fair-share usage history as stored in its ConfigMap: read back exactly, and corrupt text refused. */
class FairShareUsageCodecTest {

    private static final UsageRecord RECORD = new UsageRecord(
            9_450_000,
            Instant.parse("2026-12-02T01:30:00.123Z"),
            Map.of("vision", 4000L, "team \"q\": ünïcode", 250L),
            Map.of(
                    "vision",
                    Map.of(1_876_543L, 1.2345678901234567e12, 1_876_544L, 0.1),
                    "team \"q\": ünïcode",
                    Map.of(1_876_544L, 3.0)));

    @Test
    void aRecordIsReadBackExactlyWhateverItsTeamNamesHold() {
        String text = FairShareUsageCodec.encode(RECORD);
        assertThat(FairShareUsageCodec.decode(text)).isEqualTo(RECORD);
    }

    @Test
    void aRecordOfAHistoryThatRecordedNothingIsReadBack() {
        UsageRecord empty = new UsageRecord(1000, null, Map.of(), Map.of());
        assertThat(FairShareUsageCodec.decode(FairShareUsageCodec.encode(empty)))
                .isEqualTo(empty);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not json",
                "[]",
                "{\"version\":2,\"bucketMillis\":1000}",
                "{\"version\":1,\"bucketMillis\":0,\"last\":null,\"lastBorrowed\":{},\"buckets\":{}}",
                "{\"version\":1,\"bucketMillis\":1000,\"last\":\"yesterday\",\"lastBorrowed\":{},\"buckets\":{}}",
                "{\"version\":1,\"bucketMillis\":1000,\"last\":null,\"lastBorrowed\":{\"a\":-5},\"buckets\":{}}",
                "{\"version\":1,\"bucketMillis\":1000,\"last\":null,\"lastBorrowed\":{},\"buckets\":{\"a\":{\"x\":1}}}",
                "{\"version\":1,\"bucketMillis\":1000,\"last\":null,\"lastBorrowed\":{},\"buckets\":{\"a\":{\"1\":-1}}}",
                "{\"version\":1,\"bucketMillis\":1000,\"last\":null,\"lastBorrowed\":{}}"
            })
    void corruptTextIsRefusedWithAReason(String text) {
        assertThatThrownBy(() -> FairShareUsageCodec.decode(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a fair-share usage record");
    }
}

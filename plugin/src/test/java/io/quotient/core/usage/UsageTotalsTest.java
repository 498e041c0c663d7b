package io.quotient.core.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageTotalsTest {

    private static final LocalDate DAY1 = LocalDate.parse("2026-12-01");
    private static final LocalDate DAY2 = LocalDate.parse("2026-12-02");

    /** in quota, borrowed, device-seconds, busy and measured seconds: the fields the totals read. */
    private static UsageCounters counters(double inQuota, double borrowed, double busy) {
        double allocated = inQuota + borrowed;
        return new UsageCounters(inQuota, borrowed, allocated, 0, busy, allocated, allocated, 0);
    }

    private static JobUsageRecord record(String team, String job, Map<LocalDate, UsageCounters> days) {
        Instant at = Instant.parse("2026-12-01T00:00:00Z");
        return new JobUsageRecord(new JobId(team, job), at, at, days, Map.of());
    }

    @Test
    void useIsDerivedPerTeamDayAndSplitByTheDaysQuotaShares() {
        List<JobUsageRecord> records = List.of(
                record("vision", "train", Map.of(DAY1, counters(3600, 0, 1800), DAY2, counters(1000, 3000, 2000))),
                record("vision", "notebook", Map.of(DAY2, counters(0, 0, 0))),
                record("nlp", "infer", Map.of(DAY1, counters(0, 7200, 9000))));

        Map<UsageTotals.Key, UsageTotals.Seconds> totals = UsageTotals.of(records, Map.of("vision", "research"));

        UsageTotals.Seconds visionIn =
                totals.get(new UsageTotals.Key("research", "vision", UsageTotals.QuotaState.IN_QUOTA));
        UsageTotals.Seconds visionOut =
                totals.get(new UsageTotals.Key("research", "vision", UsageTotals.QuotaState.BORROWED));
        assertThat(visionIn.allocated()).isEqualTo(4600);
        assertThat(visionOut.allocated()).isEqualTo(3000);
        // day 1: 1800 used, all in quota; day 2: 2000 used, a quarter in quota
        assertThat(visionIn.used()).isCloseTo(1800 + 500, offset(1e-9));
        assertThat(visionOut.used()).isCloseTo(1500, offset(1e-9));

        UsageTotals.Seconds nlpOut =
                totals.get(new UsageTotals.Key(UsageSummary.NO_DEPARTMENT, "nlp", UsageTotals.QuotaState.BORROWED));
        assertThat(nlpOut.used())
                .as("busy beyond the allocation is capped at it")
                .isEqualTo(7200);
        assertThat(totals.get(new UsageTotals.Key(UsageSummary.NO_DEPARTMENT, "nlp", UsageTotals.QuotaState.IN_QUOTA))
                        .allocated())
                .isZero();
    }
}

package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The durable usage record of one job: its totals per UTC day, counted up to {@code asOf}, and the last pod
 * counters taken into them ({@code baselines}, by {@link PodCounterReading#key()}). Stored whole, in one write,
 * so that after a restart or a leader change the next reader continues exactly from where the totals stop: pod
 * counters are taken from their baselines (nothing counted twice, nothing the pods did meanwhile lost) and
 * allocation from {@code asOf}.
 *
 * @param trackingSince when accounting started for the job: pod counters that started later are counted whole
 */
public record JobUsageRecord(
        JobId job,
        Instant trackingSince,
        Instant asOf,
        Map<LocalDate, UsageCounters> days,
        Map<String, PodCounters> baselines) {

    public JobUsageRecord {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(trackingSince, "trackingSince");
        Objects.requireNonNull(asOf, "asOf");
        days = Map.copyOf(days);
        baselines = Map.copyOf(baselines);
    }

    public static JobUsageRecord start(JobId job, Instant at) {
        return new JobUsageRecord(job, at, at, Map.of(), Map.of());
    }

    /** Every day's counters added up. */
    public UsageCounters total() {
        return days.values().stream().reduce(UsageCounters.ZERO, UsageCounters::plus);
    }

    /** The counters of the days from {@code from} to {@code to}, both included. */
    public UsageCounters between(LocalDate from, LocalDate to) {
        return new TreeMap<>(days)
                .subMap(from, true, to, true).values().stream().reduce(UsageCounters.ZERO, UsageCounters::plus);
    }
}

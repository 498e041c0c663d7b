package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
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
 * @param hours         the same counters per UTC hour (keyed by the hour's start), for the current UTC day and the
 *                      {@link #HOURLY_DAYS} − 1 days before it only: showback over time by the hour; older hours
 *                      are dropped (their days keep them)
 */
public record JobUsageRecord(
        JobId job,
        Instant trackingSince,
        Instant asOf,
        Map<LocalDate, UsageCounters> days,
        Map<String, PodCounters> baselines,
        Map<Instant, UsageCounters> hours) {

    /**
     * How many UTC days, today included, keep their hourly counters: a week by the hour, while a job's record
     * (one ConfigMap) stays well under its size limit (192 hours of counters).
     */
    public static final int HOURLY_DAYS = 8;

    public JobUsageRecord {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(trackingSince, "trackingSince");
        Objects.requireNonNull(asOf, "asOf");
        days = Map.copyOf(days);
        baselines = Map.copyOf(baselines);
        hours = Map.copyOf(hours);
    }

    /** A record without hourly counters (one stored before they were kept, or a test's). */
    public JobUsageRecord(
            JobId job,
            Instant trackingSince,
            Instant asOf,
            Map<LocalDate, UsageCounters> days,
            Map<String, PodCounters> baselines) {
        this(job, trackingSince, asOf, days, baselines, Map.of());
    }

    public static JobUsageRecord start(JobId job, Instant at) {
        return new JobUsageRecord(job, at, at, Map.of(), Map.of(), Map.of());
    }

    /** The first UTC day whose hours are kept when it is {@code today}. */
    public static LocalDate firstHourlyDay(LocalDate today) {
        return today.minusDays(HOURLY_DAYS - 1);
    }

    /** The start of the UTC hour that contains {@code at}. */
    public static Instant hourOf(Instant at) {
        return at.truncatedTo(ChronoUnit.HOURS);
    }

    /** The start of a UTC day. */
    public static Instant startOf(LocalDate day) {
        return day.atStartOfDay().toInstant(ZoneOffset.UTC);
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

package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps every job's usage record current from what the service observes: the placements (allocation, counted by
 * the service's clock from one observation to the next) and the node enforcers' pod counters (usage, taken as the
 * difference from the last counters taken). Fed once per observation round (observe → snapshot); pure and
 * single-threaded, as the rest of the core.
 *
 * <p>Why it neither double counts nor leaves gaps: a record holds the counters it has taken, so a report seen twice
 * adds nothing and reports missed in between cost nothing (the next one carries their totals). After a restart or a
 * leader change the records are read back from their store: pod usage continues from the stored baselines, and
 * allocation from the stored {@code asOf}, up to {@link Settings#maxGap()} of it: a longer silence is not guessed.
 * An enforcer restart shows as a later {@code countingSince}: its counters are new, and counted whole.
 *
 * <p>Allocation is split exactly at UTC hours (and so at midnight); pod usage goes to the hour and day it was
 * observed, so a day's or an hour's figure is right to within one report period. Hourly counters are kept for
 * {@link JobUsageRecord#HOURLY_DAYS} days, daily ones for good.
 */
public final class UsageAccumulator {

    /** @param maxGap the longest silence between two observations whose allocation is still counted */
    public record Settings(Duration maxGap) {
        public Settings {
            if (maxGap == null || maxGap.isNegative() || maxGap.isZero()) {
                throw new IllegalArgumentException("usage max-gap must be a positive duration, got " + maxGap);
            }
        }
    }

    private final Settings settings;
    private final Map<JobId, JobUsageRecord> records = new LinkedHashMap<>();

    public UsageAccumulator(Settings settings, Collection<JobUsageRecord> restored) {
        this.settings = Objects.requireNonNull(settings, "settings");
        restored.forEach(r -> records.put(r.job(), r));
    }

    /**
     * Counts what happened since the previous observation.
     *
     * @param allocations every job placed now
     * @param readings    the latest pod counters of every node report (pods of jobs neither placed nor recorded are
     *                    not Quotient's to account and are ignored)
     * @return the records that changed, to be stored
     */
    public List<JobUsageRecord> observe(
            Instant now, Collection<JobAllocation> allocations, Collection<PodCounterReading> readings) {
        Map<JobId, JobAllocation> allocated = allocations.stream()
                .collect(Collectors.toMap(JobAllocation::job, a -> a, (a, b) -> a, LinkedHashMap::new));
        Map<JobId, List<PodCounterReading>> byJob = readings.stream()
                .collect(Collectors.groupingBy(PodCounterReading::job, LinkedHashMap::new, Collectors.toList()));
        Set<JobId> jobs = new LinkedHashSet<>(records.keySet());
        jobs.addAll(allocated.keySet());
        List<JobUsageRecord> changed = new ArrayList<>();
        for (JobId job : jobs) {
            boolean isNew = !records.containsKey(job);
            JobUsageRecord before = isNew ? JobUsageRecord.start(job, now) : records.get(job);
            JobUsageRecord after = advance(before, now, allocated.get(job), byJob.getOrDefault(job, List.of()));
            records.put(job, after);
            if (isNew
                    || !after.days().equals(before.days())
                    || !after.baselines().equals(before.baselines())) {
                changed.add(after);
            }
        }
        return changed;
    }

    public Optional<JobUsageRecord> record(JobId job) {
        return Optional.ofNullable(records.get(job));
    }

    public List<JobUsageRecord> records() {
        return List.copyOf(records.values());
    }

    /** Stops keeping a job's record (its job is gone and its record stored for the last time). */
    public void forget(JobId job) {
        records.remove(job);
    }

    private JobUsageRecord advance(
            JobUsageRecord record, Instant now, JobAllocation allocation, List<PodCounterReading> readings) {
        if (readings.isEmpty() && (allocation == null || !now.isAfter(record.asOf()))) {
            // nothing to count (a finished job, most records): only move asOf, sharing the maps
            return now.isAfter(record.asOf())
                    ? new JobUsageRecord(
                            record.job(),
                            record.trackingSince(),
                            now,
                            record.days(),
                            record.baselines(),
                            recentHours(record.hours(), now))
                    : record;
        }
        Map<LocalDate, UsageCounters> days = new HashMap<>(record.days());
        Map<Instant, UsageCounters> hours = new HashMap<>(recentHours(record.hours(), now));
        if (allocation != null && now.isAfter(record.asOf())) {
            Instant from =
                    record.asOf().isBefore(now.minus(settings.maxGap())) ? now.minus(settings.maxGap()) : record.asOf();
            addAllocation(days, hours, allocation, from, now);
        }
        Map<String, PodCounters> baselines = new HashMap<>(record.baselines());
        LocalDate today = day(now);
        Instant thisHour = JobUsageRecord.hourOf(now);
        for (PodCounterReading reading : readings) {
            PodCounters baseline = baselines.get(reading.key());
            if (olderThan(reading.counters(), baseline)) {
                // a view behind the stored one (a new leader's cache, a late report): keeping it as the baseline
                // would count the stretch between the two again at the next fresh report
                continue;
            }
            PodCounters delta = delta(record, baseline, reading.counters());
            if (delta != null) {
                days.merge(today, delta.asUsage(), UsageCounters::plus);
                hours.merge(thisHour, delta.asUsage(), UsageCounters::plus);
            }
            baselines.put(reading.key(), reading.counters());
        }
        Instant asOf = now.isAfter(record.asOf()) ? now : record.asOf();
        return new JobUsageRecord(record.job(), record.trackingSince(), asOf, days, baselines, hours);
    }

    /** The hours still kept at {@code now}: the same map when none has aged out (most ticks). */
    private static Map<Instant, UsageCounters> recentHours(Map<Instant, UsageCounters> hours, Instant now) {
        Instant oldest = JobUsageRecord.startOf(JobUsageRecord.firstHourlyDay(day(now)));
        if (hours.keySet().stream().noneMatch(h -> h.isBefore(oldest))) {
            return hours;
        }
        Map<Instant, UsageCounters> kept = new HashMap<>(hours);
        kept.keySet().removeIf(h -> h.isBefore(oldest));
        return kept;
    }

    /** Counters of the same enforcer run as the baseline, or of an earlier one, that do not continue it. */
    private static boolean olderThan(PodCounters current, PodCounters baseline) {
        return baseline != null
                && !current.continues(baseline)
                && !current.countingSince().isAfter(baseline.countingSince());
    }

    /** What {@code current} adds to the record; null when nothing (a baseline taken, or the same report again). */
    private static PodCounters delta(JobUsageRecord record, PodCounters baseline, PodCounters current) {
        if (baseline == null) {
            // counting began while the job was tracked: all of it is the job's; else it is where we start from
            return current.countingSince().isBefore(record.trackingSince()) ? null : current;
        }
        if (current.continues(baseline)) {
            return current.minus(baseline);
        }
        // a later start is an enforcer restart: new counters from zero; anything else is not trusted
        return current.countingSince().isAfter(baseline.countingSince()) ? current : null;
    }

    /** Books the allocation from one instant to another, split at every UTC hour (so at every midnight too). */
    private static void addAllocation(
            Map<LocalDate, UsageCounters> days,
            Map<Instant, UsageCounters> hours,
            JobAllocation allocation,
            Instant from,
            Instant to) {
        Instant start = from;
        while (start.isBefore(to)) {
            Instant hour = JobUsageRecord.hourOf(start);
            Instant next = hour.plus(Duration.ofHours(1));
            Instant end = next.isBefore(to) ? next : to;
            double seconds = Duration.between(start, end).toNanos() / 1e9;
            double gpuSeconds = allocation.gpus() * seconds;
            boolean inQuota = allocation.quotaState() == QuotaState.IN_QUOTA;
            UsageCounters held = new UsageCounters(
                    inQuota ? gpuSeconds : 0,
                    inQuota ? 0 : gpuSeconds,
                    allocation.devices() * seconds,
                    allocation.reservedMemoryMib() * seconds,
                    0,
                    0,
                    0,
                    0);
            days.merge(day(start), held, UsageCounters::plus);
            hours.merge(hour, held, UsageCounters::plus);
            start = end;
        }
    }

    private static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }
}

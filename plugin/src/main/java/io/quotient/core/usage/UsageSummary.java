package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Showback: the usage records' counters over whole UTC days, added up per team, job or department. Pure.
 */
public final class UsageSummary {

    /** Jobs of a team outside any department, or of a team no longer configured, count under this department. */
    public static final String NO_DEPARTMENT = "";

    /**
     * One group: {@code team} and {@code job} are set as far as the grouping has them ({@code job} only per job,
     * {@code team} per team and per job), {@code department} always.
     *
     * @param bucket the start of the UTC hour or day the counters are of; null for the whole range
     */
    public record Row(String department, String team, String job, UsageCounters counters, Instant bucket) {

        public Row(String department, String team, String job, UsageCounters counters) {
            this(department, team, job, counters, null);
        }
    }

    private UsageSummary() {}

    /** Each team's department name, for the teams that have one. */
    public static Map<String, String> departments(Collection<Team> teams) {
        Map<String, String> departments = new HashMap<>();
        for (Team team : teams) {
            if (team.department() != null) {
                departments.put(team.name(), team.department().name());
            }
        }
        return departments;
    }

    /**
     * @param departments each team's department; teams missing count under {@link #NO_DEPARTMENT}
     */
    public static List<Row> of(
            Collection<JobUsageRecord> records,
            LocalDate from,
            LocalDate to,
            UsageGrouping groupBy,
            Map<String, String> departments) {
        Map<List<String>, UsageCounters> groups = new TreeMap<>(UsageSummary::compareKeys);
        for (JobUsageRecord record : records) {
            UsageCounters counters = record.between(from, to);
            if (counters.equals(UsageCounters.ZERO)) {
                continue;
            }
            groups.merge(key(record.job(), groupBy, departments), counters, UsageCounters::plus);
        }
        List<Row> rows = new ArrayList<>(groups.size());
        groups.forEach((key, counters) -> rows.add(new Row(key.get(0), key.get(1), key.get(2), counters)));
        return rows;
    }

    /**
     * The same groups over time: one row per group and bucket that counted anything, by group, then time.
     * Hourly rows exist only for the days that keep hours ({@link JobUsageRecord#HOURLY_DAYS}).
     */
    public static List<Row> over(
            Collection<JobUsageRecord> records,
            LocalDate from,
            LocalDate to,
            UsageGrouping groupBy,
            UsageBucket bucket,
            Map<String, String> departments) {
        Map<List<String>, UsageCounters> groups = new TreeMap<>(UsageSummary::compareKeys);
        Instant start = JobUsageRecord.startOf(from);
        Instant end = JobUsageRecord.startOf(to.plusDays(1));
        for (JobUsageRecord record : records) {
            Map<Instant, UsageCounters> buckets = new HashMap<>();
            if (bucket == UsageBucket.HOUR) {
                buckets.putAll(record.hours());
            } else {
                record.days().forEach((day, c) -> buckets.put(JobUsageRecord.startOf(day), c));
            }
            List<String> group = key(record.job(), groupBy, departments);
            buckets.forEach((at, counters) -> {
                if (!at.isBefore(start) && at.isBefore(end) && !counters.equals(UsageCounters.ZERO)) {
                    List<String> key = new ArrayList<>(group);
                    key.add(at.toString()); // UTC instants of whole hours: their text sorts as their time
                    groups.merge(key, counters, UsageCounters::plus);
                }
            });
        }
        List<Row> rows = new ArrayList<>(groups.size());
        groups.forEach((key, counters) ->
                rows.add(new Row(key.get(0), key.get(1), key.get(2), counters, Instant.parse(key.get(3)))));
        return rows;
    }

    private static List<String> key(JobId job, UsageGrouping groupBy, Map<String, String> departments) {
        String department = departments.getOrDefault(job.team(), NO_DEPARTMENT);
        return switch (groupBy) {
            case DEPARTMENT -> List.of(department, "", "");
            case TEAM -> List.of(department, job.team(), "");
            case JOB -> List.of(department, job.team(), job.name());
        };
    }

    private static int compareKeys(List<String> a, List<String> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}

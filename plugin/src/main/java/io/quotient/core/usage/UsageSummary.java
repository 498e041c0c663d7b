package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
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
     */
    public record Row(String department, String team, String job, UsageCounters counters) {}

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

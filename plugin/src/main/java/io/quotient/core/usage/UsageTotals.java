package io.quotient.core.usage;

import java.time.LocalDate;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * All-time GPU-seconds allocated and used per department, team and quota state: what the Prometheus counters
 * publish. Pure.
 *
 * <p>Used GPU-seconds are derived per team and UTC day, as {@code GET /api/v1/usage?groupBy=team} derives them for
 * one day, so that a day's increase of the counters equals that day's showback row. The job records do not split
 * use by quota state; a team-day's use is split in proportion to its in-quota and borrowed allocation. Past days
 * never change, so only today's part can move, and it only grows unless today's proportion shifts.
 */
public final class UsageTotals {

    /** Whether GPU-seconds were allocated inside the team's guarantee or on borrowed capacity. */
    public enum QuotaState {
        IN_QUOTA("in_quota"),
        BORROWED("borrowed");

        private final String label;

        QuotaState(String label) {
            this.label = label;
        }

        /** The Prometheus label value. */
        public String label() {
            return label;
        }
    }

    /** One series: {@code department} is {@link UsageSummary#NO_DEPARTMENT} for teams outside any department. */
    public record Key(String department, String team, QuotaState state) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = team.compareTo(o.team);
            c = c != 0 ? c : department.compareTo(o.department);
            return c != 0 ? c : state.compareTo(o.state);
        }
    }

    /** GPU-seconds of one series. */
    public record Seconds(double allocated, double used) {
        Seconds plus(Seconds o) {
            return new Seconds(allocated + o.allocated, used + o.used);
        }
    }

    private UsageTotals() {}

    /**
     * @param departments each team's department; teams missing count under {@link UsageSummary#NO_DEPARTMENT}
     */
    public static Map<Key, Seconds> of(Collection<JobUsageRecord> records, Map<String, String> departments) {
        Map<String, Map<LocalDate, UsageCounters>> teamDays = new TreeMap<>();
        for (JobUsageRecord record : records) {
            Map<LocalDate, UsageCounters> days =
                    teamDays.computeIfAbsent(record.job().team(), t -> new TreeMap<>());
            record.days().forEach((day, counters) -> days.merge(day, counters, UsageCounters::plus));
        }
        Map<Key, Seconds> totals = new TreeMap<>();
        teamDays.forEach((team, days) -> {
            String department = departments.getOrDefault(team, UsageSummary.NO_DEPARTMENT);
            for (UsageCounters day : days.values()) {
                double allocated = day.allocatedGpuSeconds();
                double inQuotaShare = allocated > 0 ? day.allocatedInQuotaGpuSeconds() / allocated : 1;
                double used = day.usedGpuSeconds();
                totals.merge(
                        new Key(department, team, QuotaState.IN_QUOTA),
                        new Seconds(day.allocatedInQuotaGpuSeconds(), used * inQuotaShare),
                        Seconds::plus);
                totals.merge(
                        new Key(department, team, QuotaState.BORROWED),
                        new Seconds(day.allocatedBorrowedGpuSeconds(), used * (1 - inQuotaShare)),
                        Seconds::plus);
            }
        });
        return totals;
    }
}

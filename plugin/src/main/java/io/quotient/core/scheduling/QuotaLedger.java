package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each team (and department) holds, in GPU milli, and what its non-preemptible jobs hold. Mutable: a plan under
 * construction adds and removes jobs as it goes. Which jobs are in quota is not kept here: it follows from what a
 * team holds ({@link QuotaStates}), so every rule is stated on the totals.
 */
final class QuotaLedger {

    private final Map<String, Team> teams;
    private final Map<String, Long> total = new HashMap<>();
    private final Map<String, Long> nonPreemptible = new HashMap<>();
    private final Map<String, Long> departments = new HashMap<>();

    QuotaLedger(Map<String, Team> teams) {
        this.teams = teams;
    }

    /** The jobs with their quota state as it is now ({@link QuotaStates}), in their original order. */
    static List<PlacedJob> withCurrentQuotaStates(List<PlacedJob> placed, Map<String, Team> teams) {
        return QuotaStates.current(placed, teams);
    }

    void add(PlacedJob job) {
        change(job, job.gpuMilli());
    }

    void remove(PlacedJob job) {
        change(job, -job.gpuMilli());
    }

    private void change(PlacedJob job, long milli) {
        String team = job.spec().team();
        total.merge(team, milli, Long::sum);
        if (!job.spec().preemptible()) {
            nonPreemptible.merge(team, milli, Long::sum);
        }
        Department d = team(team).department();
        if (d != null) {
            departments.merge(d.name(), milli, Long::sum);
        }
    }

    /** The team's configuration; a team no longer configured has no guarantee and no maximum. */
    Team team(String name) {
        Team team = teams.get(name);
        return team != null ? team : new Team(name, 0, Team.UNLIMITED, 0, Integer.MIN_VALUE);
    }

    Map<String, Team> teams() {
        return teams;
    }

    long total(String team) {
        return total.getOrDefault(team, 0L);
    }

    long departmentTotal(String department) {
        return departments.getOrDefault(department, 0L);
    }

    /** What the team holds beyond its guarantee. */
    long borrowed(String team) {
        return Math.max(0, total(team) - team(team).guaranteedMilli());
    }

    /** Whether the team, holding {@code milli} more, would still be within its guarantee. */
    boolean fitsGuarantee(String team, long milli) {
        return total(team) + milli <= team(team).guaranteedMilli();
    }

    /** Whether the team's department, holding {@code milli} more, would still be within its guarantee (false without one). */
    boolean fitsDepartmentGuarantee(String team, long milli) {
        Department d = team(team).department();
        return d != null && departmentTotal(d.name()) + milli <= d.guaranteedMilli();
    }

    /** Whether a non-preemptible job of {@code milli} fits the guarantee beside the team's other non-preemptible work. */
    boolean fitsGuaranteeNonPreemptible(String team, long milli) {
        return nonPreemptible.getOrDefault(team, 0L) + milli <= team(team).guaranteedMilli();
    }

    long nonPreemptible(String team) {
        return nonPreemptible.getOrDefault(team, 0L);
    }

    /** Whether {@code milli} more would take the team beyond its maximum. */
    boolean exceedsMax(String team, long milli) {
        Team t = team(team);
        return t.hasMax() && total(team) + milli > t.maxMilli();
    }

    /** Whether {@code milli} more would take the team's department beyond the department's maximum. */
    boolean exceedsDepartmentMax(String team, long milli) {
        Department d = team(team).department();
        return d != null && d.hasMax() && departmentTotal(d.name()) + milli > d.maxMilli();
    }
}

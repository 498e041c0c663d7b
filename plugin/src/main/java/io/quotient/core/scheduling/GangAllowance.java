package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.PlacedJob;
import java.util.HashMap;
import java.util.Map;

/**
 * What a gang's reclaim may still take: the rights it was granted less what its evictions so far took from each other
 * team and department. The allowances hold for the whole gang, not per node it frees.
 */
final class GangAllowance {

    private final Workspace ws;
    private final ReclaimRights rights;
    private final Map<String, Long> teamTaken;
    private final Map<String, Long> departmentTaken;

    GangAllowance(Workspace ws, ReclaimRights rights) {
        this(ws, rights, new HashMap<>(), new HashMap<>());
    }

    private GangAllowance(
            Workspace ws, ReclaimRights rights, Map<String, Long> teamTaken, Map<String, Long> departmentTaken) {
        this.ws = ws;
        this.rights = rights;
        this.teamTaken = teamTaken;
        this.departmentTaken = departmentTaken;
    }

    /** An independent copy, for a trial that may be abandoned. */
    GangAllowance copy() {
        return new GangAllowance(ws, rights, new HashMap<>(teamTaken), new HashMap<>(departmentTaken));
    }

    ReclaimRights granted() {
        return rights;
    }

    /**
     * The rights less what was taken already; with {@code insideAtLeast} milli the next evictions must free inside
     * the claimant's department, with {@code ownAtLeast} of the claimant team's own jobs.
     */
    ReclaimRights remaining(long insideAtLeast, long ownAtLeast) {
        Map<String, Long> teams = new HashMap<>(rights.teamAllowance());
        teamTaken.forEach((team, milli) -> teams.computeIfPresent(team, (t, left) -> Math.max(0, left - milli)));
        DepartmentLimits limits = rights.departments().insideOnly();
        Map<String, Long> departments = new HashMap<>(limits.allowance());
        departmentTaken.forEach((d, milli) -> departments.computeIfPresent(d, (k, left) -> Math.max(0, left - milli)));
        return new ReclaimRights(
                rights.rule(),
                teams,
                new DepartmentLimits(departments, 0, insideAtLeast),
                rights.claimantTeam(),
                rights.ownEvictable(),
                ownAtLeast,
                rights.evictions(),
                rights.moves());
    }

    /**
     * Whether the job may still be evicted: its team (and department) have that much left to lose, and its GPU model
     * group does not keep it from the claimant (as {@link ReclaimSearch} judges).
     */
    boolean mayEvict(PlacedJob job) {
        if (!rights.evictions() || ws.ledger().keptInGroup(job, rights.claimantTeam())) {
            return false;
        }
        String team = job.spec().team();
        if (team.equals(rights.claimantTeam())) {
            return rights.ownEvictable().test(job);
        }
        long left = rights.teamAllowance().getOrDefault(team, 0L) - teamTaken.getOrDefault(team, 0L);
        return left >= job.gpuMilli() && departmentMayLose(job);
    }

    private boolean departmentMayLose(PlacedJob job) {
        String team = job.spec().team();
        Department d = ws.ledger().team(team).department();
        Department claimant = ws.ledger().team(rights.claimantTeam()).department();
        if (team.equals(rights.claimantTeam())
                || d == null
                || (claimant != null && d.name().equals(claimant.name()))) {
            return true;
        }
        long left = rights.departments().allowance().getOrDefault(d.name(), 0L)
                - departmentTaken.getOrDefault(d.name(), 0L);
        return left >= job.gpuMilli();
    }

    /** Counts an eviction against its team's and department's allowances (the claimant's own jobs count nowhere). */
    void taken(PlacedJob victim) {
        String team = victim.spec().team();
        if (team.equals(rights.claimantTeam())) {
            return;
        }
        teamTaken.merge(team, victim.gpuMilli(), Long::sum);
        Department department = ws.ledger().team(team).department();
        Department claimant = ws.ledger().team(rights.claimantTeam()).department();
        if (department != null && (claimant == null || !department.name().equals(claimant.name()))) {
            departmentTaken.merge(department.name(), victim.gpuMilli(), Long::sum);
        }
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.PlacementPolicy;
import java.util.Collections;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What one attempt to make room for a job may take: how much each other team (and department) may lose before it
 * would fall below the level it is protected at (its guarantee, or its fair share when reclaiming for fairness),
 * which of the claimant team's own jobs may go, and whether jobs may be moved instead of evicted.
 *
 * @param rule             the ladder step that grants the right (eviction reasons and failed searches key on it)
 * @param teamAllowance    per other team, the milli it may lose; a team absent here loses nothing
 * @param departments      what other departments may lose, and what the claimant's must free inside itself first
 * @param claimantTeam     the team of the job that needs room
 * @param ownEvictable     which of the claimant team's own jobs may be evicted
 * @param ownMustFree      milli the claimant team must free of its own jobs for the job to fit its limit
 * @param evictions        whether anything may be evicted at all (false: consolidation by moves only)
 * @param moves            whether preemptible jobs past their minimum runtime may be moved to make room
 */
record ReclaimRights(
        ReclaimStep rule,
        Map<String, Long> teamAllowance,
        DepartmentLimits departments,
        String claimantTeam,
        Predicate<PlacedJob> ownEvictable,
        long ownMustFree,
        boolean evictions,
        boolean moves) {

    ReclaimRights {
        // Map.of()'s empty map still hashes and probes on every lookup, and searches ask it for every job they see
        teamAllowance = teamAllowance.isEmpty() ? Collections.emptyMap() : teamAllowance;
    }

    /**
     * The nodes of {@code filter} where the job's exact size, with what these rights make its team free of its own
     * jobs first, keeps its team's and department's maxima and the rule's own limit.
     */
    PlacementPolicy.NodeFilter keepingLimits(
            QuotaLedger ledger,
            ReclaimRules rules,
            JobSpec job,
            ResourceDemand demand,
            PlacementPolicy.NodeFilter filter) {
        long departmentFrees = Math.max(ownMustFree, departments.ownDepartmentOverMax());
        return (s, n) -> {
            long milli = demand.totalMilliOn(s.node(n));
            return filter.accepts(s, n)
                    && !ledger.exceedsMax(job.team(), milli - ownMustFree)
                    && !ledger.exceedsDepartmentMax(job.team(), milli - departmentFrees)
                    && rule.keepsLimit(ledger, rules, job, this, milli);
        };
    }

    /** The same rights granted by another rule (which then names them in reasons and failed-search memos). */
    ReclaimRights under(ReclaimStep other) {
        return new ReclaimRights(
                other, teamAllowance, departments, claimantTeam, ownEvictable, ownMustFree, evictions, moves);
    }

    /** Whether the job may be evicted under these rights, ignoring the allowances' running totals. */
    boolean mayEvict(PlacedJob job) {
        if (!evictions) {
            return false;
        }
        if (job.spec().team().equals(claimantTeam)) {
            return ownEvictable.test(job);
        }
        return teamAllowance.getOrDefault(job.spec().team(), 0L) >= job.gpuMilli();
    }
}

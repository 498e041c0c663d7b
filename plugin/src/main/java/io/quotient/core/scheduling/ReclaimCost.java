package io.quotient.core.scheduling;

import java.util.Comparator;

/**
 * Lexicographic cost of a reclaim choice ({@link ReclaimSearch}'s class comment says what each part means). Every
 * component only grows as evictions are added, so a partial choice that costs as much as the best one found can be
 * abandoned.
 *
 * @param teamPriority the highest priority of another team that loses a job
 * @param belowShare   the deepest that such a team ends below its fair share, in steps of the hysteresis
 *                     ({@link SearchTeams#endsBelowShare})
 */
record ReclaimCost(int teamPriority, long belowShare, int maxPriority, long work, long milli, int moves, int evictions)
        implements Comparable<ReclaimCost> {
    static final ReclaimCost NONE = new ReclaimCost(Integer.MIN_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE, 0, 0, 0, 0);
    private static final Comparator<ReclaimCost> ORDER = Comparator.comparingInt(ReclaimCost::teamPriority)
            .thenComparingLong(ReclaimCost::belowShare)
            .thenComparingInt(ReclaimCost::maxPriority)
            .thenComparingLong(ReclaimCost::work)
            .thenComparingLong(ReclaimCost::milli)
            .thenComparingInt(ReclaimCost::moves)
            .thenComparingInt(ReclaimCost::evictions);

    public int compareTo(ReclaimCost o) {
        return ORDER.compare(this, o);
    }

    /** An eviction that leaves the teams' standing out of the comparison (the claimant's own job, a gang's). */
    ReclaimCost evict(int priority, long w, long m) {
        return evict(Integer.MIN_VALUE, Long.MIN_VALUE, priority, w, m);
    }

    ReclaimCost evict(int ofTeamPriority, long endsBelowShare, int priority, long w, long m) {
        return new ReclaimCost(
                Math.max(teamPriority, ofTeamPriority),
                Math.max(belowShare, endsBelowShare),
                Math.max(maxPriority, priority),
                work + w,
                milli + m,
                moves,
                evictions + 1);
    }

    ReclaimCost move() {
        return new ReclaimCost(teamPriority, belowShare, maxPriority, work, milli, moves + 1, evictions);
    }
}

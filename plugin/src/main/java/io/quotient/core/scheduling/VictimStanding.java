package io.quotient.core.scheduling;

import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Where a victim's team stands, as the reclaim search's cost compares victims ({@link ReclaimCost}): its
 * priority, and how far below its fair share it ends once jobs are taken from it, counted in whole steps of the
 * fair-share hysteresis (a team that ends less than one step below its share counts as keeping it: differences the
 * hysteresis ignores elsewhere do not outweigh evicting less). The claimant's own jobs have no standing: they leave
 * the team-level comparison to the job-level one.
 *
 * @param books      the ledger (or the view of it) the standing is read from, at each call
 * @param fairShare  per team, its fair share in milli, as {@code books} sees it
 * @param stepMilli  the fair-share hysteresis in milli (at least 1)
 */
record VictimStanding(Supplier<QuotaLedger> books, ToLongFunction<String> fairShare, long stepMilli) {

    VictimStanding {
        stepMilli = Math.max(1, stepMilli);
    }

    /** Another team's priority. */
    int priority(String team) {
        return books.get().team(team).priority();
    }

    /** What another team holds below its fair share now, in milli (negative when above it). */
    long shareLeft(String team) {
        return fairShare.applyAsLong(team) - books.get().total(team);
    }

    /**
     * How far below its fair share a team {@code shareLeft} below it ends once {@code takenMilli} of it is gone, in
     * whole steps (0: less than one step below it, or above it).
     */
    long stepsBelowShare(long shareLeft, long takenMilli) {
        return Math.max(0, shareLeft + takenMilli) / stepMilli;
    }
}

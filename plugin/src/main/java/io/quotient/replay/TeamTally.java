package io.quotient.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The time integrals of one team (or, with no guarantee, of the whole cluster) over a replay: what it holds and
 * waits for, kept up to date from the replay's events and integrated over each interval of constant state. The team
 * is below its guarantee while it holds less than its target: what it holds (its running jobs fixed) plus the most its
 * waiting jobs can add in whole jobs within its entitlement, min(guarantee, demand) met as the cluster can
 * ({@link #entitledTo}, {@link WholeJobTarget}), and, for a team whose
 * guarantee is split by GPU model, within the gaps of the groups they may run on.
 */
final class TeamTally {

    private final long guaranteeMilli;
    /** What of its guarantee the scheduler owes the team now ({@link #entitledTo}); its guarantee until told. */
    private long entitledMilli;

    private long heldMilli;
    private long waitingDemandMilli;
    private int waitingJobs;
    /** The waiting jobs by the GPU milli each needs: how many would fit in the free capacity, in total. */
    private final TreeMap<Long, Integer> waitingByMilli = new TreeMap<>();

    private long waitingMs;
    private double allocatedWhileWaitingMilliMs;
    private double fragmentationJobMs;
    private final WholeJobTarget target = new WholeJobTarget();
    private double deficitMilliMs;
    private double blockedDeficitMilliMs;
    private long deficitSinceMs = -1;
    private final List<Long> timesToGuaranteeMs = new ArrayList<>();

    /** @param guaranteeMilli the team's guarantee; {@link Long#MIN_VALUE} for the cluster (no guarantee tracked) */
    TeamTally(long guaranteeMilli) {
        this.guaranteeMilli = guaranteeMilli;
        this.entitledMilli = guaranteeMilli;
    }

    /**
     * The part of its guarantee the scheduler owes the team at its current demand (the fair share's guarantee step:
     * min(guarantee, demand), met in proportion where the guarantees exceed the cluster): the bound of its target, so
     * that a guarantee no cluster of this size could meet counts no deficit.
     */
    void entitledTo(long milli) {
        entitledMilli = milli;
    }

    /** A job of the team waits: it counts toward the team's demand and, if it fits, its target. */
    void waits(long milli) {
        waitingJobs++;
        waitingDemandMilli += milli;
        waitingByMilli.merge(milli, 1, Integer::sum);
        target.add(milli);
    }

    void stopsWaiting(long milli) {
        waitingJobs--;
        waitingDemandMilli -= milli;
        waitingByMilli.merge(milli, -1, (a, b) -> a + b == 0 ? null : a + b);
        target.remove(milli);
    }

    void holds(long milli) {
        heldMilli += milli;
    }

    long heldMilli() {
        return heldMilli;
    }

    long demandMilli() {
        return heldMilli + waitingDemandMilli;
    }

    /**
     * The state held from {@code fromMs} for {@code dt} ms, with {@code freeMilli} GPU milli free in the cluster;
     * {@code takeable}: the free milli plus what other teams hold in jobs that may be preempted now (asked only when
     * the team is below its target).
     */
    void integrate(long fromMs, long dt, long freeMilli, LongSupplier takeable) {
        integrate(fromMs, dt, freeMilli, takeable, GuaranteeGroups.NONE);
    }

    /**
     * As {@link #integrate(long, long, long, LongSupplier)}, for a team whose guarantee may be split by GPU model: its
     * gap is its groups' gaps, and its waiting jobs can add only within the gaps of groups they may run in.
     */
    void integrate(long fromMs, long dt, long freeMilli, LongSupplier takeable, GuaranteeGroups groups) {
        if (waitingJobs > 0) {
            waitingMs += dt;
            allocatedWhileWaitingMilliMs += (double) heldMilli * dt;
            int fitting = 0;
            for (Map.Entry<Long, Integer> e :
                    waitingByMilli.headMap(freeMilli, true).entrySet()) {
                fitting += e.getValue();
            }
            fragmentationJobMs += (double) fitting * dt;
        }
        if (guaranteeMilli == Long.MIN_VALUE) {
            return;
        }
        long bound = Math.min(entitledMilli, demandMilli());
        // the target is what the team holds plus what its waiting jobs can add within the bound
        long deficit = target.within(groups.gap(bound - heldMilli));
        if (deficit > 0) {
            deficit = Math.min(deficit, groups.reachable());
        }
        if (deficit > 0) {
            deficitMilliMs += (double) deficit * dt;
            blockedDeficitMilliMs += (double) Math.max(0, deficit - takeable.getAsLong()) * dt;
            if (deficitSinceMs < 0) {
                deficitSinceMs = fromMs;
            }
        } else {
            closeDeficit(fromMs);
        }
    }

    /** Ends a stretch below the guarantee at {@code ms} (the state changed there, or the replay ended). */
    void closeDeficit(long ms) {
        if (deficitSinceMs >= 0) {
            timesToGuaranteeMs.add(ms - deficitSinceMs);
            deficitSinceMs = -1;
        }
    }

    /** Allocation while this team (or anyone) waited, % of the cluster's capacity; NaN when it never waited. */
    double allocationPctWhileWaiting(long capacityMilli) {
        return waitingMs == 0
                ? Double.NaN
                : 100.0 * allocatedWhileWaitingMilliMs / ((double) waitingMs * capacityMilli);
    }

    double fragmentationJobHours() {
        return fragmentationJobMs / 3_600_000.0;
    }

    double deficitGpuHours() {
        return deficitMilliMs / 1000.0 / 3_600_000.0;
    }

    double blockedDeficitGpuHours() {
        return blockedDeficitMilliMs / 1000.0 / 3_600_000.0;
    }

    List<Long> timesToGuaranteeMs() {
        return timesToGuaranteeMs;
    }
}

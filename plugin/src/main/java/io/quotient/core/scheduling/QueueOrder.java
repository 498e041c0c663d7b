package io.quotient.core.scheduling;

import io.quotient.core.model.PendingJob;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The orders waiting jobs are tried in: within a team, and across teams within their guarantees and beyond them. */
final class QueueOrder {

    private QueueOrder() {}

    /**
     * The waiting jobs in the order they are tried: team priority, then job priority, then first come first served
     * (the job's name only makes the order total). Each job's team priority is read once, not at every comparison:
     * a pass sorts the whole queue.
     */
    static List<PendingJob> sorted(Collection<PendingJob> pending, Map<String, Team> teams) {
        record Keyed(int teamPriority, PendingJob job) {}
        List<Keyed> keyed = new ArrayList<>(pending.size());
        for (PendingJob p : pending) {
            keyed.add(new Keyed(teamPriority(teams, p.spec().team()), p));
        }
        keyed.sort((a, b) -> {
            int c = Integer.compare(b.teamPriority(), a.teamPriority());
            if (c == 0) {
                c = Integer.compare(b.job().spec().priority(), a.job().spec().priority());
            }
            if (c == 0) {
                c = a.job().queuedAt().compareTo(b.job().queuedAt());
            }
            return c != 0
                    ? c
                    : JobNames.compare(a.job().spec().id(), b.job().spec().id());
        });
        List<PendingJob> queue = new ArrayList<>(keyed.size());
        keyed.forEach(k -> queue.add(k.job()));
        return queue;
    }

    /**
     * A team's next waiting job as the borrowing order compares it, with the team's priority and fair-share position
     * read once, when it is taken (the order compares the same teams' next jobs again and again).
     */
    record Borrower(int teamPriority, SharePosition position, PendingJob job) implements Turn<Borrower> {
        @Override
        public Borrower withJob(PendingJob next) {
            return new Borrower(teamPriority, position, next);
        }
    }

    /**
     * A team's next job as an order across teams compares it ({@link TeamTurns}).
     *
     * @param <T> the turn's own type
     */
    interface Turn<T extends Turn<T>> {
        PendingJob job();

        /**
         * The turn of the team's next job when it is decided alike ({@link RepeatedRefusals#decidedAlike}) and nothing
         * was booked since: the same keys but the job's own.
         */
        T withJob(PendingJob next);
    }

    /**
     * A team's next job as {@link #CLAIMING} compares it: the team's priority, how much of its guarantee it holds
     * ({@code held / guaranteed}, infinite without a guarantee) and the job's size, read once when it is taken.
     */
    record Claimant(int teamPriority, double guaranteeUse, long milli, PendingJob job) implements Turn<Claimant> {
        @Override
        public Claimant withJob(PendingJob next) {
            return new Claimant(teamPriority, guaranteeUse, milli, next);
        }
    }

    /**
     * The next job of a team as {@link #CLAIMING} compares it.
     *
     * @param heldMilli       what the job's team holds now, in milli
     * @param guaranteedMilli the team's guarantee, in milli
     * @param milli           the least the job takes, in milli
     */
    static Claimant claimant(
            PendingJob job, Map<String, Team> teams, long heldMilli, long guaranteedMilli, long milli) {
        double use = guaranteedMilli > 0 ? (double) heldMilli / guaranteedMilli : Double.POSITIVE_INFINITY;
        return new Claimant(teamPriority(teams, job.spec().team()), use, milli, job);
    }

    /**
     * The order in which jobs within their team's guarantee are decided, comparing the next job of each team: team
     * priority, then the share of its guarantee the team holds (the team furthest below its guarantee first), then job
     * priority, then the smaller job, then arrival; team name and job name only make the order total. Where the
     * guarantees fit the cluster every such job runs (taking borrowed capacity back) and the order only says who
     * takes idle GPUs first; where they exceed it, it decides who runs. This is KAI-Scheduler's queue order in its
     * allocate action (queues by allocated over deserved share; equal shares: the queue whose job is smaller), with
     * Quotient's team and job priorities around it.
     */
    static final Comparator<Claimant> CLAIMING = QueueOrder::claimingOrder;

    /**
     * The next job of a team as {@link #BORROWING} compares it.
     *
     * @param position each job's team's fair-share position now: with model groups, the team's position in the group
     *                 the job would land in (it changes as jobs are booked or freed: a caller that keeps borrowers
     *                 between decisions must take them afresh then)
     */
    static Borrower borrower(PendingJob job, Map<String, Team> teams, Function<PendingJob, SharePosition> position) {
        return new Borrower(teamPriority(teams, job.spec().team()), position.apply(job), job);
    }

    /**
     * The order in which waiting jobs borrow idle capacity, comparing the next job of each team: team priority (idle
     * capacity goes to higher-priority teams first, as {@link FairShare} divides it), then the team's fair-share
     * position (the team furthest below its over-quota entitlement first, {@link SharePosition}), then job priority,
     * then arrival, as Kueue's fair sharing orders admissions; team name and job name only make the order total.
     */
    static final Comparator<Borrower> BORROWING = QueueOrder::borrowingOrder;

    // the orders written out, not chained: a pass compares teams' next jobs at every job it takes, and a chain of
    // seven comparators calls through all seven each time

    private static int claimingOrder(Claimant a, Claimant b) {
        int c = Integer.compare(b.teamPriority(), a.teamPriority());
        if (c == 0) {
            c = Double.compare(a.guaranteeUse(), b.guaranteeUse());
        }
        if (c == 0) {
            c = Integer.compare(b.job().spec().priority(), a.job().spec().priority());
        }
        if (c == 0) {
            c = Long.compare(a.milli(), b.milli());
        }
        return c != 0 ? c : byArrivalTeamAndName(a.job(), b.job());
    }

    private static int borrowingOrder(Borrower a, Borrower b) {
        int c = Integer.compare(b.teamPriority(), a.teamPriority());
        if (c == 0) {
            c = a.position().compareTo(b.position());
        }
        if (c == 0) {
            c = Integer.compare(b.job().spec().priority(), a.job().spec().priority());
        }
        return c != 0 ? c : byArrivalTeamAndName(a.job(), b.job());
    }

    private static int byArrivalTeamAndName(PendingJob a, PendingJob b) {
        int c = a.queuedAt().compareTo(b.queuedAt());
        if (c == 0) {
            c = a.spec().team().compareTo(b.spec().team());
        }
        return c != 0 ? c : JobNames.compare(a.spec().id(), b.spec().id());
    }

    private static int teamPriority(Map<String, Team> teams, String team) {
        Team t = teams.get(team);
        return t == null ? Integer.MIN_VALUE : t.priority();
    }
}

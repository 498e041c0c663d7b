package io.quotient.core.scheduling;

import io.quotient.core.model.PendingJob;
import java.util.Comparator;
import java.util.Deque;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Teams' waiting jobs taken in turns: the next job decided is always the first, in an order across teams, of each
 * team's next job. The order's keys (a team's share of its guarantee, its fair-share position) change only when a
 * booking does, so the teams' next jobs stay ordered until the workspace's bookings change, and only then are they
 * keyed and ordered afresh: a pass costs an ordering of the teams per booking, not per job. A team's next jobs that
 * are decided alike ({@link RepeatedRefusals#decidedAlike}: the same keys but arrival and name) are taken one after
 * another while each still comes before every other team's next job, without a pass through the ordered set: most
 * of a long queue is a few teams' runs of like jobs, refused one after another.
 *
 * @param <T> a team's next job with the keys the order compares, read once when it is taken
 */
final class TeamTurns<T extends QueueOrder.Turn<T>> {

    private final Function<PendingJob, T> turn;
    private final Comparator<T> order;
    private final LongSupplier bookings;

    /**
     * @param turn     keys a team's next job as the order compares it, from the workspace as it is now
     * @param bookings the workspace's booking count: when it moves, every key is read again
     */
    TeamTurns(Function<PendingJob, T> turn, Comparator<T> order, LongSupplier bookings) {
        this.turn = turn;
        this.order = order;
        this.bookings = bookings;
    }

    /**
     * Decides every waiting job, emptying {@code waiting}.
     *
     * @param waiting per team, its waiting jobs in the team's own order (the first is its next job)
     */
    void take(Map<String, Deque<PendingJob>> waiting, Consumer<PendingJob> decide) {
        TreeSet<T> heads = new TreeSet<>(order);
        long ordered = -1;
        while (!waiting.isEmpty()) {
            if (bookings.getAsLong() != ordered) {
                heads.clear();
                waiting.values().forEach(jobs -> heads.add(turn.apply(jobs.peek())));
                ordered = bookings.getAsLong();
            }
            T taken = heads.pollFirst();
            String team = taken.job().spec().team();
            Deque<PendingJob> jobs = waiting.get(team);
            decide.accept(jobs.poll());
            T next = null;
            T otherFirst = heads.isEmpty() ? null : heads.first();
            // the team's next jobs decided alike while nothing is booked keep its keys: each goes next while it comes
            // before every other team's next job, without a key read or a pass through the ordered set
            while (!jobs.isEmpty() && bookings.getAsLong() == ordered) {
                PendingJob following = jobs.peek();
                if (!RepeatedRefusals.decidedAlike(taken.job().spec(), following.spec())) {
                    next = turn.apply(following);
                    break;
                }
                next = taken.withJob(following);
                if (otherFirst != null && order.compare(next, otherFirst) > 0) {
                    break;
                }
                decide.accept(jobs.poll());
                taken = next;
                next = null;
            }
            if (jobs.isEmpty()) {
                waiting.remove(team);
            } else if (bookings.getAsLong() == ordered) {
                heads.add(next != null ? next : turn.apply(jobs.peek()));
            }
        }
    }
}

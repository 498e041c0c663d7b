package io.quotient.core.idle;

import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides, for every placed job its team's idle policy watches, whether it is busy, warned or released
 * ({@link IdleState}). Whether someone waits for the GPUs a job would free is the engine's own decision: the
 * scheduler's queue pass runs on the snapshot without the idle job (with it back in the queue when releasing
 * re-queues it: a preempted job in its team's guarantee would be placed again first, so nobody waits for it), and a
 * waiting job counts when that pass places it but the pass on the snapshot as it is does not. Jobs idle longest go
 * first; a job released frees its GPUs and takes its waiter out of the queue for the jobs after it, so two idle
 * notebooks are not both released for one waiter. Pure: the service applies the verdicts.
 *
 * <p><b>A re-queued job's place.</b> A job released for idleness and put back in the queue (preempted) re-enters it
 * as of its release ({@link IdleVerdict#requeuedAt}), not as of its submission: an interactive job that sat idle has
 * given up its place, as a notebook stopped by Kubeflow's culler and started again by its user queues anew. Kept at
 * its submission, it would come before the waiter it was released for whenever that waiter came later (a job of its
 * own team at equal priority), be placed again on the GPUs it gave up, and the release would achieve nothing. The
 * queue pass this decider runs puts it there too, so who waits for it is decided on the order the queue will have.
 * Reclaim preemptions keep the job's place: it was not idle, it was only lent GPUs.
 */
public final class IdleDecider {

    private final Scheduler scheduler;

    public IdleDecider(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * @param requeued whether releasing the job puts it back in the queue (preempted), rather than ending it (a
     *                 stopped job, a stopped Notebook)
     */
    public List<IdleVerdict> decide(SchedulingSnapshot snapshot, IdleDetector detector, Predicate<JobId> requeued) {
        Instant now = snapshot.now();
        List<PlacedJob> placed = new ArrayList<>(snapshot.placed());
        List<PendingJob> pending = new ArrayList<>(snapshot.pending());
        pending.sort(
                Comparator.comparingInt((PendingJob p) -> -p.spec().priority()).thenComparing(PendingJob::queuedAt));
        List<IdleVerdict> verdicts = new ArrayList<>();
        List<PlacedJob> candidates = new ArrayList<>();
        for (PlacedJob job : snapshot.placed()) {
            IdlePolicy policy = policy(snapshot, job);
            if (!policy.watches(job.spec().kind())) {
                continue;
            }
            Optional<IdleDetector.Idleness> idle = detector.idleness(job.id());
            if (idle.isEmpty() || idleFor(idle.get(), now).compareTo(policy.warnAfter()) < 0) {
                double utilisation = detector.lastUtilisation(job.id()).orElse(0.0);
                verdicts.add(busy(job, policy, utilisation));
            } else {
                candidates.add(job);
            }
        }
        candidates.sort(Comparator.comparing(
                (PlacedJob j) -> detector.idleness(j.id()).orElseThrow().since()));
        // jobs released in this pass and back in the queue: the queue passes after them have them, but they wait for
        // nobody (a released job is no waiter for another idle job)
        List<PendingJob> released = new ArrayList<>();
        Set<JobId> placedAsIs = null; // what the queue pass places with every candidate kept; changes on a release
        for (PlacedJob job : candidates) {
            IdlePolicy policy = policy(snapshot, job);
            IdleDetector.Idleness idle = detector.idleness(job.id()).orElseThrow();
            if (!pending.isEmpty() && placedAsIs == null) {
                placedAsIs = placedBy(scheduler.schedulePending(with(snapshot, placed, queue(pending, released))));
            }
            boolean requeues = requeued.test(job.id());
            Optional<PendingJob> waiter = pending.isEmpty()
                    ? Optional.empty()
                    : waiter(snapshot, placed, pending, released, placedAsIs, job, requeues);
            boolean due = idleFor(idle, now).compareTo(policy.after()) >= 0;
            IdleVerdict verdict = due && (waiter.isPresent() || !policy.onlyWhenOthersWait())
                    ? IdleExplanations.release(job, policy, idle, now, waiter)
                    : IdleExplanations.warning(job, policy, idle, now, waiter, due);
            if (verdict.state() == IdleState.RELEASE) {
                placed.remove(job);
                waiter.ifPresent(pending::remove);
                if (requeues) {
                    verdict = verdict.withRequeuedAt(now);
                    released.add(requeuedAt(job, now));
                }
                placedAsIs = null;
            }
            verdicts.add(verdict);
        }
        return verdicts;
    }

    private static IdlePolicy policy(SchedulingSnapshot snapshot, PlacedJob job) {
        Team team = snapshot.teams().get(job.spec().team());
        return team == null ? IdlePolicy.OFF : team.idle();
    }

    private static Duration idleFor(IdleDetector.Idleness idle, Instant now) {
        return idle.since().isAfter(now) ? Duration.ZERO : Duration.between(idle.since(), now);
    }

    private static IdleVerdict busy(PlacedJob job, IdlePolicy policy, double utilisation) {
        return new IdleVerdict(
                job.id(),
                job.spec().kind(),
                IdleState.BUSY,
                null,
                utilisation,
                Optional.empty(),
                IdleExplanations.describe(job) + " is in use",
                "",
                policy.action(),
                Optional.empty());
    }

    /**
     * The first waiting job (in queue order) the queue would place once {@code job} is released, but not now
     * ({@code now}: what it places with {@code placed} as they are).
     */
    private Optional<PendingJob> waiter(
            SchedulingSnapshot snapshot,
            List<PlacedJob> placed,
            List<PendingJob> pending,
            List<PendingJob> released,
            Set<JobId> now,
            PlacedJob job,
            boolean requeued) {
        List<PlacedJob> without = new ArrayList<>(placed);
        without.remove(job);
        List<PendingJob> queue = queue(pending, released);
        if (requeued) {
            queue.add(requeuedAt(job, snapshot.now()));
        }
        Set<JobId> after = placedBy(scheduler.schedulePending(with(snapshot, without, queue)));
        return pending.stream()
                .filter(w ->
                        after.contains(w.spec().id()) && !now.contains(w.spec().id()))
                .findFirst();
    }

    /** The job back in the queue after its release at {@code releasedAt}: its place counts from the release. */
    private static PendingJob requeuedAt(PlacedJob job, Instant releasedAt) {
        return new PendingJob(job.spec(), releasedAt);
    }

    private static List<PendingJob> queue(List<PendingJob> pending, List<PendingJob> released) {
        List<PendingJob> queue = new ArrayList<>(pending);
        queue.addAll(released);
        return queue;
    }

    private static Set<JobId> placedBy(Plan plan) {
        Set<JobId> placed = new HashSet<>();
        plan.actionsOf(PlanAction.Place.class).forEach(p -> placed.add(p.job()));
        return placed;
    }

    private static SchedulingSnapshot with(
            SchedulingSnapshot snapshot, List<PlacedJob> placed, List<PendingJob> pending) {
        return new SchedulingSnapshot(
                snapshot.nodes(),
                snapshot.fractionReadyNodes(),
                placed,
                pending,
                snapshot.teams(),
                snapshot.now(),
                snapshot.pastBorrowedMilli());
    }

    /** How a job of this kind is named in sentences. */
    static String kindName(JobKind kind) {
        return switch (kind) {
            case NOTEBOOK -> "notebook";
            case INFERENCE -> "inference service";
            case TRAIN -> "training job";
        };
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", fraction * 100);
    }
}

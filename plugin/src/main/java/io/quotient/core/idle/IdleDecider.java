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
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides, for every placed job its team's idle policy watches, whether it is busy, warned or released
 * ({@link IdleState}). Whether someone waits for the GPUs a job would free is the engine's own decision: the
 * scheduler is asked to place each waiting job on the snapshot without the idle job, and a waiter counts when it
 * would be placed there without evicting anyone, but not on the snapshot as it is. Jobs idle longest go first; a
 * job released frees its GPUs and takes its waiter out of the queue for the jobs after it, so two idle notebooks
 * are not both released for one waiter. Pure: the service applies the verdicts.
 */
public final class IdleDecider {

    /** At most this many waiting jobs (in queue order) are tried per idle job: each try is two scheduling runs. */
    static final int MAX_WAITERS_TRIED = 32;

    private final Scheduler scheduler;

    public IdleDecider(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    public List<IdleVerdict> decide(SchedulingSnapshot snapshot, IdleDetector detector) {
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
        for (PlacedJob job : candidates) {
            IdlePolicy policy = policy(snapshot, job);
            IdleDetector.Idleness idle = detector.idleness(job.id()).orElseThrow();
            Optional<PendingJob> waiter = waiter(snapshot, placed, pending, job);
            boolean due = idleFor(idle, now).compareTo(policy.after()) >= 0;
            IdleVerdict verdict = due && (waiter.isPresent() || !policy.onlyWhenOthersWait())
                    ? IdleExplanations.release(job, policy, idle, now, waiter)
                    : IdleExplanations.warning(job, policy, idle, now, waiter, due);
            if (verdict.state() == IdleState.RELEASE) {
                placed.remove(job);
                waiter.ifPresent(pending::remove);
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
                policy.action());
    }

    /** The first waiting job the GPUs of {@code job} would place, that cannot be placed while it holds them. */
    private Optional<PendingJob> waiter(
            SchedulingSnapshot snapshot, List<PlacedJob> placed, List<PendingJob> pending, PlacedJob job) {
        List<PlacedJob> without = new ArrayList<>(placed);
        without.remove(job);
        int tried = 0;
        for (PendingJob candidate : pending) {
            if (tried++ >= MAX_WAITERS_TRIED) {
                break;
            }
            List<PendingJob> others = new ArrayList<>(pending);
            others.remove(candidate);
            if (placesCleanly(with(snapshot, without, others), candidate.spec().id(), candidate)
                    && !placesCleanly(
                            with(snapshot, placed, others), candidate.spec().id(), candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private boolean placesCleanly(SchedulingSnapshot snapshot, JobId id, PendingJob job) {
        Plan plan = scheduler.schedule(snapshot, job.spec());
        return plan.actionsOf(PlanAction.Evict.class).isEmpty()
                && plan.actionsOf(PlanAction.Place.class).stream()
                        .anyMatch(p -> p.job().equals(id));
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

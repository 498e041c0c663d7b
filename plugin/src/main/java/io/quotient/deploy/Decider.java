package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import java.util.Map;
import java.util.Optional;

/**
 * One decision: snapshot the records and the cluster, ask the scheduling core for a plan, apply it. Callers hold
 * the {@link DecisionLock}, except for {@link #recordPlaced}, which records a new job with its placement after the
 * lock is released (see {@link AssumedPlacements}).
 */
public final class Decider {

    private final JobRecordStore store;
    private final SnapshotBuilder snapshots;
    private final Scheduler scheduler;
    private final PlanApplier applier;
    private final AssumedPlacements assumed;
    private final JobTransitions transitions;

    public Decider(
            JobRecordStore store,
            SnapshotBuilder snapshots,
            Scheduler scheduler,
            PlanApplier applier,
            AssumedPlacements assumed,
            JobTransitions transitions) {
        this.store = store;
        this.snapshots = snapshots;
        this.scheduler = scheduler;
        this.applier = applier;
        this.assumed = assumed;
        this.transitions = transitions;
    }

    /**
     * Places a recorded job that is still undecided (its plan evicts others, or it was recorded on a follower), or
     * keeps it pending with the reason; the whole plan is applied with the lock held, on written records only.
     * Nothing when the job is no longer waiting: the re-queue may have taken the lock first and placed it (deciding
     * it again would evict a second time).
     */
    public Plan decideNew(JobRecord record) {
        assumed.awaitNone();
        Optional<JobRecord> current = store.find(record.id());
        if (current.isEmpty() || !current.get().phase().waiting()) {
            return Plan.EMPTY;
        }
        Plan plan = planNew(current.get());
        applier.apply(plan, DecisionCause.DEPLOY);
        return plan;
    }

    /**
     * The first decision on a job not recorded yet, with the lock held. A lone placement is assumed until
     * {@link #recordPlaced} has written it (the lock is not held for that write), a lone "wait" is returned with its
     * reason, for {@link #recordPending}; a plan that evicts others first is left to {@link #decideNew} once the
     * job is recorded.
     *
     * @throws JobAlreadyExistsException when a job of that name is recorded or being recorded; nothing is changed
     */
    public FirstDecision decideFirst(JobRecord unrecorded) {
        JobId job = unrecorded.id();
        if (store.find(job).isPresent() || assumed.inFlight(job)) {
            throw new JobAlreadyExistsException(job);
        }
        Plan plan = planNew(unrecorded);
        Optional<PlacedJob> lone = lonePlacement(plan, job);
        if (lone.isPresent()) {
            assumed.assume(lone.get());
            return new FirstDecision.Place(lone.get());
        }
        if (plan.actions().size() == 1
                && plan.actions().get(0) instanceof PlanAction.KeepPending wait
                && wait.job().equals(job)) {
            assumed.recording(job); // recorded after the lock is released: the re-queue waits for it
            return new FirstDecision.Wait(wait.reason());
        }
        return FirstDecision.UNDECIDED;
    }

    /** Records a new job with its assumed placement and deploys it; called without the lock. */
    public JobRecord recordPlaced(JobRecord unrecorded, PlacedJob placement) {
        try {
            return transitions.recordPlaced(unrecorded, placement);
        } finally {
            assumed.settle(placement.spec().id());
        }
    }

    /** Records a new job decided to wait, with the reason; called without the lock. */
    public JobRecord recordPending(JobRecord unrecorded, String why) {
        try {
            return transitions.recordPending(unrecorded, why);
        } finally {
            assumed.settle(unrecorded.id());
        }
    }

    /** Tries every waiting job in queue order (evicting borrowed capacity for teams under their guarantee). */
    public Plan decidePending() {
        assumed.awaitNone();
        SchedulingSnapshot snapshot = snapshot(Optional.empty());
        if (snapshot.pending().isEmpty()) {
            return Plan.EMPTY;
        }
        Plan plan = scheduler.schedulePending(snapshot);
        applier.apply(plan, DecisionCause.QUEUE);
        return plan;
    }

    /** Moves preemptible jobs so that whole GPUs and nodes free up, within {@code maxMovedShare} of the cluster. */
    public Plan defragment(double maxMovedShare) {
        assumed.awaitNone();
        Plan plan = scheduler.rebalance(snapshot(Optional.empty()), maxMovedShare);
        applier.apply(plan, DecisionCause.DEFRAGMENT);
        return plan;
    }

    /**
     * Grows elastic gangs that run with fewer replicas than they asked for, where capacity has freed; nothing (and no
     * snapshot) when no such gang runs.
     */
    public Plan growElastic() {
        assumed.awaitNone();
        if (store.listAll().stream().noneMatch(Decider::runsShort)) {
            return Plan.EMPTY;
        }
        Plan plan = scheduler.grow(snapshot(Optional.empty()));
        applier.apply(plan, DecisionCause.GROW);
        return plan;
    }

    /** A placed gang with fewer replicas than it asked for (an elastic gang started with at least its minimum). */
    private static boolean runsShort(JobRecord record) {
        return record.phase().holdsCapacity()
                && record.spec().gang().spansNodes()
                && 1 + record.status().otherReplicas().size()
                        < record.spec().gang().replicas();
    }

    /** Waits until every assumed placement is written, so that what follows acts on written records only. */
    public void awaitAssumedWritten() {
        assumed.awaitNone();
    }

    private Plan planNew(JobRecord waiting) {
        return scheduler.schedule(snapshot(Optional.of(waiting.id())), waiting.spec());
    }

    private SchedulingSnapshot snapshot(Optional<JobId> decided) {
        // the assumed placements first: one settling in between is then in its record, not missing from both
        Map<JobId, PlacedJob> assumedNow = assumed.current();
        return snapshots.build(store.listAll(), decided, assumedNow);
    }

    private static Optional<PlacedJob> lonePlacement(Plan plan, JobId job) {
        if (plan.actions().size() == 1
                && plan.actions().get(0) instanceof PlanAction.Place place
                && place.job().equals(job)) {
            return Optional.of(place.placement());
        }
        return Optional.empty();
    }
}

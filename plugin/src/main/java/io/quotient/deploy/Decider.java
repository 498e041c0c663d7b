package io.quotient.deploy;

import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.core.scheduling.SchedulingSnapshot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;

import java.util.Optional;

/**
 * One decision: snapshot the records and the cluster, ask the scheduling core for a plan, apply it. Callers hold
 * the {@link DecisionLock}.
 */
public final class Decider {

    private final JobRecordStore store;
    private final SnapshotBuilder snapshots;
    private final Scheduler scheduler;
    private final PlanApplier applier;

    public Decider(JobRecordStore store, SnapshotBuilder snapshots, Scheduler scheduler, PlanApplier applier) {
        this.store = store;
        this.snapshots = snapshots;
        this.scheduler = scheduler;
        this.applier = applier;
    }

    /**
     * Places a newly recorded job, or keeps it pending with the reason. Nothing when the job is no longer waiting:
     * the re-queue may have taken the lock first and placed it (deciding it again would evict a second time).
     */
    public Plan decideNew(JobRecord record) {
        Optional<JobRecord> current = store.find(record.id());
        if (current.isEmpty() || !current.get().phase().waiting()) {
            return Plan.EMPTY;
        }
        SchedulingSnapshot snapshot = snapshots.build(store.listAll(), Optional.of(record.id()));
        Plan plan = scheduler.schedule(snapshot, current.get().spec());
        applier.apply(plan, DecisionCause.DEPLOY);
        return plan;
    }

    /** Tries every waiting job in queue order (evicting borrowed capacity for teams under their guarantee). */
    public Plan decidePending() {
        SchedulingSnapshot snapshot = snapshots.build(store.listAll(), Optional.empty());
        if (snapshot.pending().isEmpty()) {
            return Plan.EMPTY;
        }
        Plan plan = scheduler.schedulePending(snapshot);
        applier.apply(plan, DecisionCause.QUEUE);
        return plan;
    }

    /** Moves preemptible jobs so that whole GPUs and nodes free up, within {@code maxMovedShare} of the cluster. */
    public Plan defragment(double maxMovedShare) {
        SchedulingSnapshot snapshot = snapshots.build(store.listAll(), Optional.empty());
        Plan plan = scheduler.rebalance(snapshot, maxMovedShare);
        applier.apply(plan, DecisionCause.DEFRAGMENT);
        return plan;
    }
}

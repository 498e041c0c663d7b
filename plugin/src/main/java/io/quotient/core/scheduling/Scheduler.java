package io.quotient.core.scheduling;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.SchedulingSnapshot;

/**
 * The scheduling core's entry points: pure functions from a snapshot to a plan.
 * Nothing here touches Kubernetes; the adapters observe the snapshot and apply the plan.
 */
public interface Scheduler {

    /**
     * Decides one new job: a {@link PlanAction.Place} (preceded by the {@link PlanAction.Evict}s that make room
     * when the team is under its guarantee), or a {@link PlanAction.KeepPending} with the reason.
     */
    Plan schedule(SchedulingSnapshot snapshot, JobSpec job);

    /** Tries every pending job of the snapshot in queue order (team priority, job priority, age); used by re-queue and reclaim. */
    Plan schedulePending(SchedulingSnapshot snapshot);

    /**
     * Proposes moves of preemptible jobs that free whole GPUs and nodes; every moved job gets a new place,
     * and at most {@code maxMovedShare} (0..1) of the cluster's GPU capacity is moved.
     */
    Plan rebalance(SchedulingSnapshot snapshot, double maxMovedShare);

    /**
     * Proposes {@link PlanAction.Grow}s for elastic gangs running with fewer replicas than they asked for, where
     * capacity has freed (within the team's guarantee, or while no job waits). A scheduler without elastic gangs
     * grows nothing.
     */
    default Plan grow(SchedulingSnapshot snapshot) {
        return Plan.EMPTY;
    }
}

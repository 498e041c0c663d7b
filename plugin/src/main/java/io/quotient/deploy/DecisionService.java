package io.quotient.deploy;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.LeadershipGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * Every decision of the service, one at a time ({@link DecisionLock}) and only on the leader replica: placing a
 * new job, removing one, and what keeps decisions right over time (run periodically by Quartz) — re-queue of
 * waiting jobs, reclaim of borrowed capacity, defragmentation, following the workloads' phases.
 */
public final class DecisionService {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionService.class);

    private final Reconciler reconciler;
    private final Decider decider;
    private final JobTransitions transitions;
    private final DecisionLock lock;
    private final LeadershipGate leadership;

    public DecisionService(Reconciler reconciler, Decider decider, JobTransitions transitions, DecisionLock lock,
                           LeadershipGate leadership) {
        this.reconciler = reconciler;
        this.decider = decider;
        this.transitions = transitions;
        this.lock = lock;
        this.leadership = leadership;
    }

    public boolean isLeader() {
        return leadership.isLeader();
    }

    /** Places a newly recorded job or leaves it pending with the reason; nothing on a follower. */
    public void decideNew(JobRecord record) {
        if (leadership.isLeader()) {
            lock.decide(() -> decider.decideNew(record));
        }
    }

    /**
     * Removes a job: stops its workload and deletes its record; on the leader also releases GPUs left without
     * fractions and lets waiting jobs use the freed capacity at once (on a follower the leader's next re-queue
     * does both). Returns the record as it was, if any.
     */
    public Optional<JobRecord> remove(JobId job) {
        return lock.decide(() -> {
            Optional<JobRecord> removed = transitions.remove(job);
            if (removed.isPresent() && leadership.isLeader()) {
                transitions.releaseGpusOf(removed.get());
                decider.decidePending();
            }
            return removed;
        });
    }

    /**
     * Reconciles the cluster with the records (finishing anything a crash interrupted, following the workloads'
     * phases), then tries every waiting job. Returns the plan applied (empty on a follower).
     */
    public Plan requeuePending() {
        if (!leadership.isLeader()) {
            return Plan.EMPTY;
        }
        return lock.decide(() -> {
            reconciler.reconcile();
            return decider.decidePending();
        });
    }

    /**
     * Returns borrowed capacity to teams with waiting in-quota work: the queue decision evicts the over-quota jobs
     * that stand in the way of a team's guarantee. Same decision as the re-queue, on its own schedule so that
     * reclaiming is never later than configured even when the re-queue runs rarely.
     */
    public Plan reclaim() {
        return requeuePending();
    }

    /** Follows the workloads' phases (Running, Succeeded, Failed); capacity of finished jobs goes to the queue. */
    public int syncPhases() {
        if (!leadership.isLeader()) {
            return 0;
        }
        return lock.decide(() -> {
            int finished = reconciler.reconcile();
            if (finished > 0) {
                decider.decidePending();
            }
            return finished;
        });
    }

    /** Moves preemptible jobs so that whole GPUs and nodes free up; never more than {@code maxMovedShare} (0..1). */
    public Plan defragment(double maxMovedShare) {
        if (!leadership.isLeader()) {
            return Plan.EMPTY;
        }
        return lock.decide(() -> {
            reconciler.reconcile();
            Plan plan = decider.defragment(maxMovedShare);
            LOG.info("defragmentation moved {} jobs (at most {} % of the cluster's GPUs)",
                    plan.actionsOf(PlanAction.Move.class).size(), maxMovedShare * 100);
            return plan;
        });
    }
}

package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.LeadershipGate;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private final QuotaLabels quotaLabels;

    public DecisionService(
            Reconciler reconciler,
            Decider decider,
            JobTransitions transitions,
            DecisionLock lock,
            LeadershipGate leadership,
            QuotaLabels quotaLabels) {
        this.reconciler = reconciler;
        this.decider = decider;
        this.transitions = transitions;
        this.lock = lock;
        this.leadership = leadership;
        this.quotaLabels = quotaLabels;
    }

    public boolean isLeader() {
        return leadership.isLeader();
    }

    /**
     * Records a new job together with its first decision and returns the record as stored. On the leader the
     * decision comes first and the record is created with it in one write, after the lock is released (a
     * placement is assumed meanwhile, {@link AssumedPlacements}); a plan that evicts other jobs is applied with the
     * lock held, once the job is recorded. On a follower the job is recorded undecided, for the leader's re-queue.
     *
     * @throws io.quotient.deploy.port.JobAlreadyExistsException when the name is taken; nothing is changed
     */
    public JobRecord deployNew(JobRecord unrecorded) {
        if (!leadership.isLeader()) {
            return transitions.recordUndecided(
                    unrecorded.withStatus(JobStatus.pending(PendingReasons.AWAITING_LEADER)));
        }
        FirstDecision first = lock.decide(() -> decider.decideFirst(unrecorded));
        if (first instanceof FirstDecision.Place place) {
            return decider.recordPlaced(unrecorded, place.placement());
        }
        if (first instanceof FirstDecision.Wait wait) {
            return decider.recordPending(unrecorded, wait.reason());
        }
        JobRecord created = transitions.recordUndecided(unrecorded);
        // the first decision would evict: follow the workloads' phases first, so that a job finished since the last
        // re-queue is not counted as holding the capacity another job is evicted for (lone placements need not wait)
        if (leadership.isLeader()) {
            afterReconciling(reconciliation -> {
                decider.decideNew(created);
                return reconciliation.finished();
            });
        }
        return transitions.latest(created);
    }

    /** Places a recorded, undecided job or leaves it pending with the reason; nothing on a follower. */
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
            decider.awaitAssumedWritten(); // the job may be one of them
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
     * phases), then tries every waiting job, then rewrites stale quota labels ({@link QuotaLabels}, the pass's own
     * placements and evictions included). Returns the plan applied (empty on a follower).
     */
    public Plan requeuePending() {
        if (!leadership.isLeader()) {
            return Plan.EMPTY;
        }
        return afterReconciling(reconciliation -> {
            Plan queued = decider.decidePending();
            decider.growElastic(); // after the queue: growth takes only what no waiting job was given
            quotaLabels.refresh();
            return queued;
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
        return afterReconciling(reconciliation -> {
            if (reconciliation.finished() > 0) {
                decider.decidePending();
            }
            return reconciliation.finished();
        });
    }

    /**
     * Runs the idle pass ({@link IdleReclaim}) under the lock once no placement is assumed; GPUs it freed at once (a
     * preempted or stopped idle job) go to the waiting jobs in the same turn. Nothing on a follower but forgetting.
     */
    public IdleReclaim.Pass releaseIdle(IdleReclaim idle) {
        if (!leadership.isLeader()) {
            return idle.pass();
        }
        return lock.decide(() -> {
            decider.awaitAssumedWritten();
            IdleReclaim.Pass pass = idle.pass();
            if (pass.freed()) {
                decider.decidePending();
            }
            return pass;
        });
    }

    /** Moves preemptible jobs so that whole GPUs and nodes free up; never more than {@code maxMovedShare} (0..1). */
    public Plan defragment(double maxMovedShare) {
        if (!leadership.isLeader()) {
            return Plan.EMPTY;
        }
        return afterReconciling(reconciliation -> {
            Plan plan = decider.defragment(maxMovedShare);
            LOG.info(
                    "defragmentation moved {} jobs (at most {} % of the cluster's GPUs)",
                    plan.actionsOf(PlanAction.Move.class).size(), maxMovedShare * 100);
            return plan;
        });
    }

    private record Reconciled<T>(T result, List<JobRecord> nowRunning) {}

    /**
     * Under the lock, once no placement is assumed: reconciles, then runs {@code decision}. The Running phases the
     * reconciliation saw are written after the lock is released.
     */
    private <T> T afterReconciling(Function<Reconciler.Reconciliation, T> decision) {
        Reconciled<T> done = lock.decide(() -> {
            decider.awaitAssumedWritten();
            Reconciler.Reconciliation reconciliation = reconciler.reconcile();
            return new Reconciled<>(decision.apply(reconciliation), reconciliation.nowRunning());
        });
        reconciler.recordRunning(done.nowRunning());
        return done.result();
    }
}

package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The changes of one job's state, each written to its record BEFORE the cluster is touched: the record is the
 * intent, and the reconciler re-applies an intent whose cluster side was interrupted. Every gateway call is
 * idempotent, so re-applying never duplicates.
 *
 * <p>Decision writes (a placement, move, eviction, "still pending", a re-queue from a lost node, a quota label) and
 * their events are fenced: leadership is asked again right before each one, so a replica that froze after its plan
 * passed the leadership check (SIGSTOP, a long GC) writes nothing more once it wakes; the plan stops there
 * ({@link LeadershipLostException}) and the leader in office decides from the records. Status writes also carry the
 * record's resourceVersion, so a stale leader's write to a record the new leader changed is refused. What remains is
 * a freeze between that last check and the request reaching the API server, on a record the new leader has not
 * written yet.
 *
 * <p>This class is the one door the deciders use; the pieces it shares out keep one job each: a new job's first
 * record ({@link NewJobRecords}), taking capacity back ({@link Evictions}), the steps every placement shares
 * ({@link PlacementSteps}) and the fence ({@link LeadershipFence}).
 */
public final class JobTransitions {

    private static final Logger LOG = LoggerFactory.getLogger(JobTransitions.class);

    private final JobRecordStore store;
    private final ReservationKeeper reservations;
    private final Duration stopGrace;
    private final DeploymentMetrics metrics;
    private final WorkloadGateway gateway;
    private final PendingReasonRefresh reasonRefresh;
    private final LeadershipFence fence;
    private final PlacementSteps placing;
    private final NewJobRecords newRecords;
    private final Evictions evictions;

    public JobTransitions(
            JobRecordStore store,
            WorkloadGateway gateway,
            ReservationKeeper reservations,
            DeploymentMetrics metrics,
            Duration stopGrace,
            Clock clock,
            LeadershipGate leadership) {
        this.store = store;
        this.gateway = gateway;
        this.reservations = reservations;
        this.metrics = metrics;
        this.stopGrace = stopGrace;
        this.reasonRefresh = new PendingReasonRefresh(clock);
        this.fence = new LeadershipFence(leadership);
        this.placing = new PlacementSteps(store, gateway, reservations, clock);
        this.newRecords = new NewJobRecords(store, gateway, fence, placing);
        this.evictions = new Evictions(store, gateway, reservations, metrics, stopGrace, fence);
    }

    /** Records the placement, reserves fractional GPUs, then creates the workload (once the GPU UUIDs are known). */
    public JobRecord place(JobRecord record, PlacedJob placement, DecisionCause cause) {
        // a job placed by the queue before its own deploy decision ran (the two race for the lock) is just placed
        boolean requeued = record.phase().waiting()
                && cause != DecisionCause.DEPLOY
                && !PendingReasons.undecided(record.status().reason());
        JobRecord placed =
                place(record, placement, requeued ? "Requeued" : "Placed", requeued ? "Re-deployed on " : "Placed on ");
        if (requeued) {
            metrics.requeued(record.id());
        }
        return placed;
    }

    /**
     * Moves a job (defragmentation): evicts it from where it runs (its pods get the stop grace), then places it
     * at its new place. If the move stops half-way, the job waits Pending and the re-queue places it.
     */
    public JobRecord move(JobRecord record, PlacedJob from, PlacedJob to, DecisionCause cause) {
        JobRecord pending = record;
        if (record.phase().holdsCapacity()) {
            pending = preempt(
                    record,
                    "Preempted to consolidate free GPUs: moved from " + Placements.describe(from) + " to "
                            + Placements.describe(to),
                    cause);
        }
        return place(pending, to, "Moved", "Moved from " + Placements.describe(from) + " to ");
    }

    /**
     * Grows an elastic gang: stops its workload (its pods get the stop grace), then places it again with more
     * replicas. If the growth stops half-way, the job waits Pending and the re-queue places it.
     */
    public JobRecord grow(JobRecord record, PlacedJob from, PlacedJob to, DecisionCause cause) {
        String growth = "from " + from.replicas().size() + " to "
                + to.replicas().size() + " of " + record.spec().gang().replicas() + " replicas";
        JobRecord pending = record;
        if (record.phase().holdsCapacity()) {
            pending = preempt(record, "Restarted to grow the elastic gang " + growth + " (capacity freed)", cause);
        }
        return place(pending, to, "Grown", "Grown " + growth + ": placed on ");
    }

    private JobRecord place(JobRecord record, PlacedJob placement, String event, String verb) {
        fence.check(record, "the placement");
        JobRecord written = store.updateStatus(record, placing.placedStatus(placement));
        fence.check(record, "the " + event + " event");
        return placing.announce(written, placement, event, verb);
    }

    /** Records a new job with its first decision, a placement, then deploys it ({@link NewJobRecords}). */
    public JobRecord recordPlaced(JobRecord unrecorded, PlacedJob placement) {
        return newRecords.recordPlaced(unrecorded, placement);
    }

    /** Records a new job together with its first decision: it waits, for this reason ({@link NewJobRecords}). */
    public JobRecord recordPending(JobRecord unrecorded, String why) {
        return newRecords.recordPending(unrecorded, why);
    }

    /** Records a new job as it is, undecided: a decision follows (or the leader's re-queue takes it). */
    public JobRecord recordUndecided(JobRecord unrecorded) {
        return store.create(unrecorded);
    }

    /** The record as stored now, or {@code record} if it is gone. */
    public JobRecord latest(JobRecord record) {
        return store.find(record.id()).orElse(record);
    }

    /**
     * Creates the workload of a placed record if its fractional GPUs all have UUIDs, asking for them first.
     * Safe to repeat: an identical workload is left as it is.
     */
    public JobRecord deployIfBound(JobRecord placed) {
        return placing.deployIfBound(placed);
    }

    /**
     * Evicts a job holding capacity: marks it Preempted with the reason, says so in an event, stops its workload
     * gracefully, releases GPUs left without fractions and puts it back in the queue (Pending, same reason).
     */
    public JobRecord preempt(JobRecord record, String reason, DecisionCause cause) {
        return evictions.preempt(record, reason, cause);
    }

    /** Completes an eviction an interruption left with the record saying Preempted ({@link Evictions}). */
    public JobRecord completeInterruptedEviction(JobRecord record) {
        return evictions.completeInterruptedEviction(record);
    }

    /** Stops the workload a pending job left from an earlier placement (fenced: the leader may have placed it again). */
    public void stopLeftOverWorkload(JobRecord record) {
        evictions.stopLeftOverWorkload(record);
    }

    /** Finishes an eviction: stops the workload, releases reservations, returns the job to Pending. */
    public JobRecord requeueStopped(JobRecord preempted) {
        return evictions.requeueStopped(preempted);
    }

    /** Re-queues a job whose node left the cluster, the record first ({@link Evictions}). */
    public JobRecord requeueFromLostNode(JobRecord record, String lostNode) {
        return evictions.requeueFromLostNode(record, lostNode);
    }

    /**
     * Updates why a waiting job waits; writes and tells (event) only when the reason changed, and when only its
     * figures changed, at most every {@link PendingReasonRefresh#FIGURES_REFRESH}.
     */
    public JobRecord keepPending(JobRecord record, String why) {
        String reason = PendingReasons.merge(record.status().reason(), why);
        String stored = record.status().reason();
        if (record.phase() == JobPhase.PENDING
                && (Objects.equals(reason, stored) || !reasonRefresh.due(record.id(), stored, reason))) {
            return record;
        }
        LOG.info(
                "job {} of team {} pending: {}", record.id().name(), record.id().team(), reason);
        fence.check(record, "the Pending event");
        gateway.recordEvent(record.id(), "Pending", reason);
        fence.check(record, "the pending reason");
        JobRecord written = store.updateStatus(record, JobStatus.pending(reason));
        reasonRefresh.written(record.id());
        return written;
    }

    /**
     * Rewrites the quota state stored with a placed job to the one recomputed from what its team holds now (the
     * smallest cover of its guarantee changes as the team's jobs come and go), so that {@code kubectl get gpujob}
     * and anything reading the records see what evictions go by. No event: nothing is decided about the job.
     */
    public JobRecord relabel(JobRecord record, QuotaState state) {
        fence.check(record, "the quota state " + state.wireName());
        LOG.info(
                "job {} of team {} on node {} is now {} (stored: {})",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                state.wireName(),
                record.status().quotaState() == null
                        ? "none"
                        : record.status().quotaState().wireName());
        return store.updateStatus(record, record.status().withQuotaState(state));
    }

    /** Whether this replica still leads (asked right before acting on the cluster from its own view). */
    public boolean leads() {
        return fence.leads();
    }

    /**
     * Stops the job's workload and deletes its record. The GPUs it leaves without fractions are released by
     * {@link #releaseGpusOf} (on the leader: a follower's view may miss a fraction the leader just placed there).
     *
     * @return the record as it was, or empty when there was none
     */
    public Optional<JobRecord> remove(JobId job) {
        Optional<JobRecord> found = store.find(job);
        found.ifPresent(record -> {
            gateway.stop(job, stopGrace);
            store.delete(job);
            LOG.info(
                    "job {} of team {} deleted (was {} on node {})",
                    job.name(),
                    job.team(),
                    record.phase().wireName(),
                    record.status().node());
        });
        return found;
    }

    /** Releases the reservations of the GPUs a removed job held fractions of, where no other fraction is left. */
    public void releaseGpusOf(JobRecord removed) {
        reservations.releaseUnneeded(Placements.fractionalSlots(removed));
    }

    /** Records that the workload finished (or vanished) and releases its capacity. */
    public JobRecord finish(JobRecord record, JobPhase outcome, String reason) {
        JobRecord finished = store.updateStatus(record, record.status().withPhase(outcome, reason));
        LOG.info(
                "job {} of team {} on node {} {}: {}",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                outcome.wireName(),
                reason);
        reservations.releaseUnneeded(Placements.fractionalSlots(record));
        return finished;
    }
}

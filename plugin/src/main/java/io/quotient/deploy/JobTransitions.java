package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
 */
public final class JobTransitions {

    private static final Logger LOG = LoggerFactory.getLogger(JobTransitions.class);

    private final JobRecordStore store;
    private final WorkloadGateway gateway;
    private final ReservationKeeper reservations;
    private final DeploymentMetrics metrics;
    private final Duration stopGrace;
    private final Clock clock;
    private final LeadershipGate leadership;
    private final PendingReasonRefresh reasonRefresh;

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
        this.clock = clock;
        this.leadership = leadership;
        this.reasonRefresh = new PendingReasonRefresh(clock);
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
        fence(record, "the placement");
        JobRecord written = store.updateStatus(record, placedStatus(placement));
        fence(record, "the " + event + " event");
        return placed(written, placement, event, verb);
    }

    /**
     * Records a new job, then its first decision, a placement, then deploys it. Once the placement is written the
     * deploy has happened: a failure to create the workload is logged, and the reconciliation creates it from the
     * record, as after a crash at that point. Fenced like the plans' writes (the decision was taken without the
     * lock's leadership check being repeated): a replica that stopped leading since records the job undecided, for
     * the leader, or, once the placement is written, sends no event. The record is created undecided and the placement
     * written to it by version, not created with it: a replica that froze between its check and the create, and
     * sends the create after another replica claimed the records for its term, is stopped by the check before the
     * placement, so a placement decided on its old view never lands.
     */
    public JobRecord recordPlaced(JobRecord unrecorded, PlacedJob placement) {
        if (!leadership.isLeader()) {
            return recordForTheLeader(unrecorded);
        }
        JobRecord undecided = store.create(unrecorded.withStatus(JobStatus.undecided()));
        if (!leadership.isLeader()) {
            LOG.warn(
                    "job {} of team {} recorded undecided: this replica stopped leading before writing its placement;"
                            + " the leader decides it",
                    unrecorded.id().name(),
                    unrecorded.id().team());
            return undecided;
        }
        JobRecord recorded = store.updateStatus(undecided, placedStatus(placement));
        try {
            fence(recorded, "the Placed event");
            return placed(recorded, placement, "Placed", "Placed on ");
        } catch (RuntimeException e) {
            LOG.warn(
                    "job {} of team {} is recorded as placed on node {}, but its event or workload was not made: {}."
                            + " The next reconciliation creates the workload.",
                    unrecorded.id().name(),
                    unrecorded.id().team(),
                    placement.node(),
                    e.toString());
            return recorded;
        }
    }

    /**
     * The first decision on a new job came too late: this replica stopped leading between deciding and recording
     * (a pause, a long GC). The job is recorded undecided, as on a follower, and the leader's re-queue decides it.
     */
    private JobRecord recordForTheLeader(JobRecord unrecorded) {
        LOG.warn(
                "job {} of team {} recorded undecided: this replica stopped leading after deciding it; the leader"
                        + " decides it",
                unrecorded.id().name(),
                unrecorded.id().team());
        return store.create(unrecorded.withStatus(JobStatus.pending(PendingReasons.AWAITING_LEADER)));
    }

    /** Records a new job together with its first decision: it waits, for this reason (fenced as above). */
    public JobRecord recordPending(JobRecord unrecorded, String why) {
        if (!leadership.isLeader()) {
            return recordForTheLeader(unrecorded);
        }
        JobRecord pending = store.create(unrecorded.withStatus(JobStatus.pending(why)));
        LOG.info(
                "job {} of team {} pending: {}",
                unrecorded.id().name(),
                unrecorded.id().team(),
                why);
        if (!leadership.isLeader()) {
            LOG.warn(
                    "no Pending event for job {} of team {}: this replica stopped leading",
                    unrecorded.id().name(),
                    unrecorded.id().team());
            return pending;
        }
        gateway.recordEvent(unrecorded.id(), "Pending", why);
        return pending;
    }

    /** Records a new job as it is, undecided: a decision follows (or the leader's re-queue takes it). */
    public JobRecord recordUndecided(JobRecord unrecorded) {
        return store.create(unrecorded);
    }

    /** The record as stored now, or {@code record} if it is gone. */
    public JobRecord latest(JobRecord record) {
        return store.find(record.id()).orElse(record);
    }

    /** Binds the placement's fractional GPUs to their reservations (UUIDs as far as known): the placed status. */
    private JobStatus placedStatus(PlacedJob placement) {
        List<GpuBinding> gpus = reservations.bind(placement.node(), Placements.bindings(placement));
        return JobStatus.placed(placement.node(), gpus, placement.quotaState(), clock.instant())
                .withOtherReplicas(placement.otherReplicas());
    }

    private JobRecord placed(JobRecord placed, PlacedJob placement, String event, String verb) {
        String where =
                Placements.describe(placement) + ", " + placement.quotaState().wireName();
        LOG.info(
                "job {} of team {} placed on node {}: {}",
                placed.id().name(),
                placed.id().team(),
                placement.node(),
                where);
        gateway.recordEvent(placed.id(), event, verb + where);
        return deployIfBound(placed);
    }

    /**
     * Creates the workload of a placed record if its fractional GPUs all have UUIDs, asking for them first.
     * Safe to repeat: an identical workload is left as it is.
     */
    public JobRecord deployIfBound(JobRecord placed) {
        List<GpuBinding> gpus =
                reservations.bind(placed.status().node(), placed.status().gpus());
        JobRecord current = gpus.equals(placed.status().gpus())
                ? placed
                : store.updateStatus(placed, placed.status().withGpus(gpus));
        if (!Placements.uuidsKnown(gpus)) {
            LOG.info(
                    "job {} of team {} waits on node {} for the GPU UUID of its reservation",
                    placed.id().name(),
                    placed.id().team(),
                    placed.status().node());
            return current;
        }
        gateway.deploy(current, Placements.of(current), gpus);
        return current;
    }

    /**
     * Evicts a job holding capacity: marks it Preempted with the reason, says so in an event, stops its workload
     * gracefully, releases GPUs left without fractions and puts it back in the queue (Pending, same reason).
     */
    public JobRecord preempt(JobRecord record, String reason, DecisionCause cause) {
        String why = reason.startsWith(PendingReasons.PREEMPTED_PREFIX)
                ? reason
                : PendingReasons.PREEMPTED_PREFIX + ": " + reason;
        fence(record, "the eviction");
        JobRecord preempted = store.updateStatus(record, record.status().withPhase(JobPhase.PREEMPTED, why));
        LOG.info(
                "job {} of team {} preempted on node {}: {}",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                why);
        fence(record, "the Preempted event");
        gateway.recordEvent(record.id(), "Preempted", why);
        metrics.preempted(record.id(), cause.preemptionLabel());
        return requeueStopped(preempted);
    }

    /**
     * Completes an eviction that an interruption (a restart, a leader change, an API error) left with the record saying
     * Preempted: its Event may have died with the process that recorded it, so it is said again, then the job is
     * re-queued. Fenced like every decision: a replica that lost the Lease meanwhile must neither send the Event nor stop
     * a workload that the leader in office may have placed again since.
     */
    public JobRecord completeInterruptedEviction(JobRecord record) {
        fence(record, "the completion of an interrupted eviction");
        gateway.recordEvent(
                record.id(),
                "Preempted",
                record.status().reason()
                        + " (eviction completed after an interruption: a restart, a leader change or an API error)");
        return requeueStopped(record);
    }

    /** Stops the workload a pending job left from an earlier placement (fenced: the leader may have placed it again). */
    public void stopLeftOverWorkload(JobRecord record) {
        fence(record, "stopping a left-over workload");
        LOG.info(
                "stopping the workload of pending job {} of team {}: it is left from an earlier placement",
                record.id().name(),
                record.id().team());
        gateway.stop(record.id(), stopGrace);
    }

    /** Finishes an eviction: stops the workload, releases reservations, returns the job to Pending. */
    public JobRecord requeueStopped(JobRecord preempted) {
        gateway.stop(preempted.id(), stopGrace);
        JobRecord pending = store.updateStatus(
                preempted, JobStatus.pending(preempted.status().reason()));
        reservations.releaseUnneeded(Placements.fractionalSlots(preempted));
        return pending;
    }

    /**
     * Re-queues a job whose node left the cluster: the record says so first (Pending, with the reason; a crash
     * after it leaves a pending job whose left-over workload the reconciliation stops), then its workload is
     * stopped (a gang's every replica: a gang runs whole or not at all) and the reservations it held released.
     */
    public JobRecord requeueFromLostNode(JobRecord record, String lostNode) {
        String why = PendingReasons.NODE_REMOVED_PREFIX + ": node " + lostNode + " was removed from the cluster;"
                + " re-queued";
        fence(record, "the re-queue from a removed node");
        JobRecord pending = store.updateStatus(record, JobStatus.pending(why));
        LOG.info(
                "job {} of team {} re-queued: node {} was removed from the cluster",
                record.id().name(),
                record.id().team(),
                lostNode);
        fence(record, "the NodeRemoved event");
        gateway.recordEvent(record.id(), "NodeRemoved", why);
        gateway.stop(record.id(), stopGrace);
        reservations.releaseUnneeded(Placements.fractionalSlots(record));
        return pending;
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
        fence(record, "the Pending event");
        gateway.recordEvent(record.id(), "Pending", reason);
        fence(record, "the pending reason");
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
        fence(record, "the quota state " + state.wireName());
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

    /** Refuses a decision write once this replica cannot show it still leads (see the class comment). */
    /** Whether this replica still leads (asked right before acting on the cluster from its own view). */
    public boolean leads() {
        return leadership.isLeader();
    }

    private void fence(JobRecord record, String write) {
        if (!leadership.isLeader()) {
            throw new LeadershipLostException(record.id(), write);
        }
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

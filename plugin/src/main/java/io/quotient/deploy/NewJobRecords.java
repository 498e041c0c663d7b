package io.quotient.deploy;

import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.WorkloadGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new job's record, created with its first decision (placed, pending, or undecided for the leader). Fenced like
 * the plans' writes: the decision was taken without the lock's leadership check being repeated, so a replica that
 * stopped leading since records the job undecided, for the leader.
 */
final class NewJobRecords {

    private static final Logger LOG = LoggerFactory.getLogger(NewJobRecords.class);

    private final JobRecordStore store;
    private final WorkloadGateway gateway;
    private final LeadershipFence fence;
    private final PlacementSteps placing;

    NewJobRecords(JobRecordStore store, WorkloadGateway gateway, LeadershipFence fence, PlacementSteps placing) {
        this.store = store;
        this.gateway = gateway;
        this.fence = fence;
        this.placing = placing;
    }

    /**
     * Records a new job, then its first decision, a placement, then deploys it. Once the placement is written the
     * deploy has happened: a failure to create the workload is logged, and the reconciliation creates it from the
     * record, as after a crash at that point. A replica that stopped leading records the job undecided, for the
     * leader, or, once the placement is written, sends no event. The record is created undecided and the placement
     * written to it by version, not created with it: a replica that froze between its check and the create, and
     * sends the create after another replica claimed the records for its term, is stopped by the check before the
     * placement, so a placement decided on its old view never lands.
     */
    JobRecord recordPlaced(JobRecord unrecorded, PlacedJob placement) {
        if (!fence.leads()) {
            return recordForTheLeader(unrecorded);
        }
        JobRecord undecided = store.create(unrecorded.withStatus(JobStatus.undecided()));
        if (!fence.leads()) {
            LOG.warn(
                    "job {} of team {} recorded undecided: this replica stopped leading before writing its placement;"
                            + " the leader decides it",
                    unrecorded.id().name(),
                    unrecorded.id().team());
            return undecided;
        }
        JobRecord recorded = store.updateStatus(undecided, placing.placedStatus(placement));
        try {
            fence.check(recorded, "the Placed event");
            return placing.announce(recorded, placement, "Placed", "Placed on ");
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
    JobRecord recordPending(JobRecord unrecorded, String why) {
        if (!fence.leads()) {
            return recordForTheLeader(unrecorded);
        }
        JobRecord pending = store.create(unrecorded.withStatus(JobStatus.pending(why)));
        LOG.info(
                "job {} of team {} pending: {}",
                unrecorded.id().name(),
                unrecorded.id().team(),
                why);
        if (!fence.leads()) {
            LOG.warn(
                    "no Pending event for job {} of team {}: this replica stopped leading",
                    unrecorded.id().name(),
                    unrecorded.id().team());
            return pending;
        }
        gateway.recordEvent(unrecorded.id(), "Pending", why);
        return pending;
    }
}

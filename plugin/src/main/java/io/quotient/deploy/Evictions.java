package io.quotient.deploy;

import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Taking capacity back from a job: a preemption, an eviction an interruption left half-done, a left-over workload, a
 * lost node. Each is written to the record (fenced) before its workload is stopped, and ends with the job Pending
 * in the queue and the reservations it alone needed released.
 */
final class Evictions {

    private static final Logger LOG = LoggerFactory.getLogger(Evictions.class);

    private final JobRecordStore store;
    private final WorkloadGateway gateway;
    private final ReservationKeeper reservations;
    private final DeploymentMetrics metrics;
    private final Duration stopGrace;
    private final LeadershipFence fence;

    Evictions(
            JobRecordStore store,
            WorkloadGateway gateway,
            ReservationKeeper reservations,
            DeploymentMetrics metrics,
            Duration stopGrace,
            LeadershipFence fence) {
        this.store = store;
        this.gateway = gateway;
        this.reservations = reservations;
        this.metrics = metrics;
        this.stopGrace = stopGrace;
        this.fence = fence;
    }

    /**
     * Evicts a job holding capacity: marks it Preempted with the reason, says so in an event, stops its workload
     * gracefully, releases GPUs left without fractions and puts it back in the queue (Pending, same reason).
     */
    JobRecord preempt(JobRecord record, String reason, DecisionCause cause) {
        String why = reason.startsWith(PendingReasons.PREEMPTED_PREFIX)
                ? reason
                : PendingReasons.PREEMPTED_PREFIX + ": " + reason;
        fence.check(record, "the eviction");
        JobRecord preempted = store.updateStatus(record, record.status().withPhase(JobPhase.PREEMPTED, why));
        LOG.info(
                "job {} of team {} preempted on node {}: {}",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                why);
        fence.check(record, "the Preempted event");
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
    JobRecord completeInterruptedEviction(JobRecord record) {
        fence.check(record, "the completion of an interrupted eviction");
        gateway.recordEvent(
                record.id(),
                "Preempted",
                record.status().reason()
                        + " (eviction completed after an interruption: a restart, a leader change or an API error)");
        return requeueStopped(record);
    }

    /** Stops the workload a pending job left from an earlier placement (fenced: the leader may have placed it again). */
    void stopLeftOverWorkload(JobRecord record) {
        fence.check(record, "stopping a left-over workload");
        LOG.info(
                "stopping the workload of pending job {} of team {}: it is left from an earlier placement",
                record.id().name(),
                record.id().team());
        gateway.stop(record.id(), stopGrace);
    }

    /** Finishes an eviction: stops the workload, releases reservations, returns the job to Pending. */
    JobRecord requeueStopped(JobRecord preempted) {
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
    JobRecord requeueFromLostNode(JobRecord record, String lostNode) {
        String why = PendingReasons.NODE_REMOVED_PREFIX + ": node " + lostNode + " was removed from the cluster;"
                + " re-queued";
        fence.check(record, "the re-queue from a removed node");
        JobRecord pending = store.updateStatus(record, JobStatus.pending(why));
        LOG.info(
                "job {} of team {} re-queued: node {} was removed from the cluster",
                record.id().name(),
                record.id().team(),
                lostNode);
        fence.check(record, "the NodeRemoved event");
        gateway.recordEvent(record.id(), "NodeRemoved", why);
        gateway.stop(record.id(), stopGrace);
        reservations.releaseUnneeded(Placements.fractionalSlots(record));
        return pending;
    }
}

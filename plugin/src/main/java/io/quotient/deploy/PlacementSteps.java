package io.quotient.deploy;

import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps every placement shares, whether of a new job, a queued one, a move or a growth: the placed status with
 * the fractional GPUs bound to their reservations, the Event that says where, and the workload, created once the
 * GPU UUIDs are known.
 */
final class PlacementSteps {

    private static final Logger LOG = LoggerFactory.getLogger(PlacementSteps.class);

    private final JobRecordStore store;
    private final WorkloadGateway gateway;
    private final ReservationKeeper reservations;
    private final Clock clock;

    PlacementSteps(JobRecordStore store, WorkloadGateway gateway, ReservationKeeper reservations, Clock clock) {
        this.store = store;
        this.gateway = gateway;
        this.reservations = reservations;
        this.clock = clock;
    }

    /** Binds the placement's fractional GPUs to their reservations (UUIDs as far as known): the placed status. */
    JobStatus placedStatus(PlacedJob placement) {
        List<GpuBinding> gpus = reservations.bind(placement.node(), Placements.bindings(placement));
        return JobStatus.placed(placement.node(), gpus, placement.quotaState(), clock.instant())
                .withOtherReplicas(placement.otherReplicas());
    }

    /** Says where a recorded placement put the job (log and Event), then deploys it if its GPUs are bound. */
    JobRecord announce(JobRecord placed, PlacedJob placement, String event, String verb) {
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
    JobRecord deployIfBound(JobRecord placed) {
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
}

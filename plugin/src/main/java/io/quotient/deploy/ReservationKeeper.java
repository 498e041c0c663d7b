package io.quotient.deploy;

import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.WorkloadGateway;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one reservation per GPU that hosts fractions, and none elsewhere: a GPU's reservation is made before the
 * first fraction is bound to it and released when the records show no fraction left on it (so a crash can leak
 * a reservation only until the next reconciliation).
 */
public final class ReservationKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationKeeper.class);

    private final JobRecordStore store;
    private final ClusterObserver cluster;
    private final WorkloadGateway gateway;

    public ReservationKeeper(JobRecordStore store, ClusterObserver cluster, WorkloadGateway gateway) {
        this.store = store;
        this.cluster = cluster;
        this.gateway = gateway;
    }

    /** Reserves the fractional GPUs of the bindings and fills in their UUIDs where known (null otherwise). */
    public List<GpuBinding> bind(String node, List<GpuBinding> gpus) {
        return gpus.stream()
                .map(g -> {
                    if (!g.fractional() || (g.uuid() != null && !g.uuid().isEmpty())) {
                        return g;
                    }
                    String uuid = gateway.ensureReservation(new GpuSlot(node, g.index()));
                    return g.withUuid(uuid == null || uuid.isEmpty() ? null : uuid);
                })
                .toList();
    }

    /** Releases those of the candidate GPUs that no job holding capacity has a fraction of any more. */
    public void releaseUnneeded(Collection<GpuSlot> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        Set<GpuSlot> needed = Placements.neededReservations(store.listAll());
        for (GpuSlot slot : candidates) {
            if (!needed.contains(slot)) {
                release(slot);
            }
        }
    }

    /**
     * Brings the reservations in line with the records, reading each once: releases every existing reservation no
     * fraction needs (left behind by a crash or a deleted record), and makes again those that fractions still need
     * but that are gone (a reservation pod deleted by hand or evicted; without one, the device plugin would hand
     * that GPU to a whole-GPU pod of anyone).
     */
    public void reconcile() {
        Set<GpuSlot> existing = cluster.reservations().keySet();
        Set<GpuSlot> needed = Placements.neededReservations(store.listAll());
        for (GpuSlot slot : existing) {
            if (!needed.contains(slot)) {
                release(slot);
            }
        }
        for (GpuSlot slot : needed) {
            if (!existing.contains(slot)) {
                LOG.warn(
                        "the reservation of GPU {} on node {} is gone while fractions run on it; making it again",
                        slot.gpuIndex(),
                        slot.node());
                gateway.ensureReservation(slot);
            }
        }
    }

    private void release(GpuSlot slot) {
        LOG.info(
                "releasing the reservation of GPU {} on node {}: no fraction left on it", slot.gpuIndex(), slot.node());
        gateway.releaseReservation(slot);
    }
}

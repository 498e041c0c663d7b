package io.quotient.deploy;

import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Conversions between the core's placements and what job records store. */
public final class Placements {

    private Placements() {}

    /** The placement a record holds (its phase must hold capacity). */
    public static PlacedJob of(JobRecord record) {
        var status = record.status();
        List<Integer> indices = status.gpus().stream().map(GpuBinding::index).toList();
        int milli = status.gpus().isEmpty() ? 0 : status.gpus().get(0).milli();
        QuotaState quota = status.quotaState() == null ? QuotaState.OVER_QUOTA : status.quotaState();
        return new PlacedJob(
                record.spec(),
                status.node(),
                indices,
                milli,
                quota,
                status.placedAt() == null ? record.createdAt() : status.placedAt(),
                status.otherReplicas());
    }

    /** The GPU bindings of a placement, without UUIDs. */
    public static List<GpuBinding> bindings(PlacedJob placement) {
        double fraction = placement.milliPerGpu() / (double) ResourceDemand.WHOLE;
        return placement.gpuIndices().stream()
                .map(i -> new GpuBinding(i, null, fraction))
                .toList();
    }

    /** The GPUs of a record that need a reservation (those it holds a fraction of). */
    public static Set<GpuSlot> fractionalSlots(JobRecord record) {
        Set<GpuSlot> slots = new LinkedHashSet<>();
        if (record.status().node() != null) {
            record.status().gpus().stream()
                    .filter(GpuBinding::fractional)
                    .forEach(g -> slots.add(new GpuSlot(record.status().node(), g.index())));
        }
        return slots;
    }

    /** The GPUs that must keep a reservation: those holding a fraction of a job that holds capacity. */
    public static Set<GpuSlot> neededReservations(Collection<JobRecord> records) {
        Set<GpuSlot> slots = new LinkedHashSet<>();
        records.stream().filter(r -> r.phase().holdsCapacity()).forEach(r -> slots.addAll(fractionalSlots(r)));
        return slots;
    }

    /** Whether every fractional GPU of the bindings has its UUID (the workload can be bound). */
    public static boolean uuidsKnown(List<GpuBinding> gpus) {
        return gpus.stream()
                .noneMatch(g -> g.fractional() && (g.uuid() == null || g.uuid().isEmpty()));
    }

    /** "node-1 GPUs [0, 1]" — how logs and events name a placement. */
    public static String describe(PlacedJob placement) {
        if (!placement.otherReplicas().isEmpty()) {
            return placement.replicas().size() + " replicas on "
                    + placement.replicas().stream()
                            .map(r -> r.node() + " GPUs " + r.gpuIndices())
                            .collect(Collectors.joining(", "));
        }
        if (placement.gpuIndices().isEmpty()) {
            return placement.node() + " (no GPU)";
        }
        String share = placement.milliPerGpu() >= ResourceDemand.WHOLE
                ? ""
                : " (" + placement.milliPerGpu() / 1000.0 + " of each)";
        return placement.node() + " GPUs " + placement.gpuIndices() + share;
    }
}

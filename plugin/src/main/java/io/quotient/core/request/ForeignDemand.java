package io.quotient.core.request;

import io.quotient.core.model.GpuRequest;
import java.util.Objects;

/**
 * The GPUs a foreign workload asks for, ready to be scheduled like a REST job: {@code replicas} pods of {@code perReplica}
 * each, one per node when there are several (a gang).
 */
public record ForeignDemand(GpuRequest perReplica, int replicas) {

    /** The request of a job named {@code name} of {@code team} asking for this, as a REST request would write it. */
    public JobRequestInput request(String team, String name) {
        GpuAsk gpu = GpuAsk.NONE;
        if (perReplica instanceof GpuRequest.WholeGpus w) {
            gpu = GpuAsk.whole(w.count());
        } else if (perReplica instanceof GpuRequest.Fraction f) {
            gpu = GpuAsk.fraction(f.milli() / 1000.0, f.limitMilli() / 1000.0).onDevices(f.devices());
        } else if (perReplica instanceof GpuRequest.Memory m) {
            gpu = GpuAsk.memory(m.mib(), m.limitMib()).onDevices(m.devices());
        }
        return JobRequestInput.of(team, name).with(gpu).with(new GangAsk(replicas == 1 ? null : replicas, null));
    }

    public ForeignDemand {
        Objects.requireNonNull(perReplica, "perReplica");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
    }
}

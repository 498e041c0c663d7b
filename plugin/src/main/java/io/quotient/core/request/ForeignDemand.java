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
        Integer count = null;
        Double fraction = null;
        Double fractionLimit = null;
        Long mib = null;
        Long mibLimit = null;
        Integer devices = null;
        if (perReplica instanceof GpuRequest.WholeGpus w) {
            count = w.count();
        } else if (perReplica instanceof GpuRequest.Fraction f) {
            fraction = f.milli() / 1000.0;
            fractionLimit = f.limitMilli() / 1000.0;
            devices = f.devices();
        } else if (perReplica instanceof GpuRequest.Memory m) {
            mib = m.mib();
            mibLimit = m.limitMib();
            devices = m.devices();
        }
        return new JobRequestInput(
                team,
                name,
                count,
                fraction,
                fractionLimit,
                mib,
                mibLimit,
                devices,
                null,
                null,
                null,
                null,
                null,
                null,
                replicas == 1 ? null : replicas,
                null);
    }

    public ForeignDemand {
        Objects.requireNonNull(perReplica, "perReplica");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
    }
}

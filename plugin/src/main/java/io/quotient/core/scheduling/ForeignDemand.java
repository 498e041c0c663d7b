package io.quotient.core.scheduling;

import java.util.Objects;

/**
 * The GPUs a foreign workload asks for, ready to be scheduled like a REST job: {@code replicas} pods of {@code perReplica}
 * each, one per node when there are several (a gang).
 */
public record ForeignDemand(GpuRequest perReplica, int replicas) {

    public ForeignDemand {
        Objects.requireNonNull(perReplica, "perReplica");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.ResourceDemand;
import java.util.Objects;

/**
 * A distributed job placed all or nothing: {@code replicas} pods, one per node, each needing {@code perReplica}
 * (e.g. 4 × 8 whole GPUs, or 2 GPUs at 0.5 each). An elastic job may start with {@code minReplicas} when no more
 * fit, and grow later; a rigid one has {@code minReplicas == replicas}.
 *
 * @param mixedModels whether replicas may run on different GPU models (otherwise all share one model, since a
 *                    data-parallel job runs at the pace of its slowest replica)
 */
public record GangDemand(ResourceDemand perReplica, int replicas, int minReplicas, boolean mixedModels) {

    public GangDemand {
        Objects.requireNonNull(perReplica, "perReplica");
        if (replicas < 1) {
            throw new IllegalArgumentException("a gang needs at least one replica, was " + replicas);
        }
        if (minReplicas < 1 || minReplicas > replicas) {
            throw new IllegalArgumentException("minReplicas must be in 1.." + replicas + ", was " + minReplicas);
        }
    }

    /** A rigid gang on one GPU model. */
    public static GangDemand of(ResourceDemand perReplica, int replicas) {
        return new GangDemand(perReplica, replicas, replicas, false);
    }

    /** The same gang asking for {@code count} replicas (an elastic gang tried smaller, down to its minimum). */
    public GangDemand withReplicas(int count) {
        return count == replicas ? this : new GangDemand(perReplica, count, minReplicas, mixedModels);
    }

    public boolean elastic() {
        return minReplicas < replicas;
    }
}

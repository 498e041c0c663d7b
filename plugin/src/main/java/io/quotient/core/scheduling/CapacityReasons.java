package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;
import java.util.HashMap;
import java.util.Map;

/**
 * The capacity part of one planning round's wait reasons, computed once per demand while the free capacity is
 * unchanged: a long queue of jobs of one shape then shares one reason, instead of each job scanning and sorting every
 * node again (which made most of a pass over a queue of thousands).
 */
final class CapacityReasons {

    private record Key(ResourceDemand demand, boolean sharesGpu) {}

    private record NeverKey(ResourceDemand demand, int replicas) {}

    private final ClusterState state;
    /** Whether a demand could ever fit depends on the nodes alone: kept for the whole round. */
    private final Map<NeverKey, String> never = new HashMap<>();

    private final Map<Key, String> noNode = new HashMap<>();
    private long changesSeen = -1;

    CapacityReasons(ClusterState state) {
        this.state = state;
    }

    /** {@link WaitReasons#neverFits}, remembered per demand and the fewest replicas it starts with. */
    String neverFits(ResourceDemand demand, int replicas) {
        NeverKey key = new NeverKey(demand, replicas);
        if (!never.containsKey(key)) {
            never.put(key, WaitReasons.neverFits(state, demand, replicas));
        }
        return never.get(key);
    }

    /**
     * {@link WaitReasons#noNode}, remembered per demand until the free capacity changes; {@code filter} must be the
     * one the round uses for jobs that do ({@code sharesGpu}) or do not share GPUs.
     */
    String noNode(ResourceDemand demand, PlacementPolicy.NodeFilter filter, boolean sharesGpu) {
        if (changesSeen != state.changes()) {
            noNode.clear();
            changesSeen = state.changes();
        }
        return noNode.computeIfAbsent(
                new Key(demand, sharesGpu), k -> WaitReasons.noNode(state, demand, filter, sharesGpu));
    }
}

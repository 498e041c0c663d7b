package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Optional;

/**
 * Chooses a node (and, for GPU demands, the GPUs on it) for one demand. Pure with respect to the
 * state: it reads {@code state} and returns a decision; it never allocates. Implementations hold
 * their own seeded random source, so a policy instance is deterministic for a given seed and call order.
 */
public interface PlacementPolicy {

    /** The allocation chosen for the demand among the nodes the filter accepts, or empty when none fits. */
    Optional<Allocation> place(ClusterState state, ResourceDemand demand, NodeFilter filter);

    /** The allocation chosen for the demand on any node, or empty when no node fits. */
    default Optional<Allocation> place(ClusterState state, ResourceDemand demand) {
        return place(state, demand, NodeFilter.ANY);
    }

    String name();

    /** Which nodes a placement may use, beyond the resource fit. */
    @FunctionalInterface
    interface NodeFilter {
        NodeFilter ANY = (state, node) -> true;

        boolean accepts(ClusterState state, int node);
    }
}

package io.quotient.sim;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods of a trace that no node of the cluster holds even empty (more GPUs, CPU or memory than any node of an
 * allowed model has). They fail under every policy and count in every figure alike, so a run that has many is
 * measuring the trace's fit to the cluster rather than the policy: {@code simulate} warns of them before it runs.
 */
public final class UnplaceablePods {

    private UnplaceablePods() {}

    /** The pods no empty node of {@code nodes} can hold, in the order given. */
    public static List<TracePod> of(List<NodeSpec> nodes, List<TracePod> pods) {
        ClusterState empty = new ClusterState(nodes);
        Map<ResourceDemand, Boolean> held = new HashMap<>(); // traces repeat a few hundred shapes
        return pods.stream()
                .filter(p -> !held.computeIfAbsent(p.demand(), d -> anyNodeHolds(empty, d)))
                .toList();
    }

    private static boolean anyNodeHolds(ClusterState empty, ResourceDemand demand) {
        for (int node = 0; node < empty.nodeCount(); node++) {
            if (empty.fits(node, demand)) {
                return true;
            }
        }
        return false;
    }
}

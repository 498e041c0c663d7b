package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Arrays;

/**
 * Random as in the FGD paper's simulator: a node chosen uniformly among those that fit; a fraction
 * goes to a GPU chosen uniformly among those with enough free share, whole GPUs to the free GPUs
 * with the lowest indices.
 */
final class RandomPolicy extends ScoringPolicy {

    RandomPolicy(long seed) {
        super("random", seed);
    }

    /** An independent random score per node: the highest is a uniform choice among the nodes that fit. */
    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        return random().nextLong();
    }

    @Override
    boolean normalises() {
        return false;
    }

    @Override
    Allocation allocationOn(ClusterState state, int node, ResourceDemand demand) {
        int milli = demand.needsGpu() ? demand.milliOn(state.node(node)) : 0;
        if (milli >= ResourceDemand.WHOLE || !demand.needsGpu()) {
            return tightestAllocation(state, node, demand);
        }
        int gpus = state.gpuCount(node);
        int[] candidates = new int[gpus];
        int fitting = 0;
        for (int g = 0; g < gpus; g++) {
            if (state.holds(node, g, demand)) {
                candidates[fitting++] = g;
            }
        }
        // partial Fisher-Yates: a uniform choice of gpuCount GPUs among the fitting ones
        for (int i = 0; i < demand.gpuCount(); i++) {
            int j = i + random().nextInt(fitting - i);
            int swap = candidates[i];
            candidates[i] = candidates[j];
            candidates[j] = swap;
        }
        int[] chosen = Arrays.copyOf(candidates, demand.gpuCount());
        Arrays.sort(chosen);
        return allocationWithGpus(state, node, demand, chosen);
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * GPU packing as in the FGD paper's simulator, best first: (1) only partly used GPUs are needed —
 * {@code 100 − Σ free%/10} over the GPUs taken, at least 50; (2) some fully free GPUs of a partly used
 * node are needed — {@code 50 − their number}, at least 33; (3) the node is entirely free —
 * {@code 33 − its GPU count} (at least that count). CPU-only demands score 0 everywhere.
 * Tightest-fitting GPUs within the node.
 */
final class PackingPolicy extends ScoringPolicy {

    PackingPolicy(long seed) {
        super("packing", seed);
    }

    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        if (!demand.needsGpu()) {
            return 0;
        }
        int gpus = state.gpuCount(node);
        int fullyFree = 0;
        for (int g = 0; g < gpus; g++) {
            if (state.gpuFree(node, g) == ResourceDemand.WHOLE) {
                fullyFree++;
            }
        }
        if (fullyFree == gpus) {
            return Math.max(MAX_SCORE / 3 - fullyFree, fullyFree);
        }
        int[] taken = GpuPicker.tightest(state, node, demand);
        int freeTaken = 0;
        long freePercent = 0;
        for (int g : taken) {
            int free = state.gpuFree(node, g);
            if (free == ResourceDemand.WHOLE) {
                freeTaken++;
            }
            freePercent += free * 100L / ResourceDemand.WHOLE;
        }
        if (freeTaken > 0) {
            return Math.max(MAX_SCORE / 2 - freeTaken, MAX_SCORE / 3);
        }
        return Math.max(MAX_SCORE - freePercent / 10, MAX_SCORE / 2);
    }

    @Override
    boolean normalises() {
        return false;
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.AllocationKinds;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * GPU clustering as in the FGD paper's simulator: keep jobs of one kind (a GPU fraction, k whole GPUs)
 * together. Bands of 25 points, best first: nodes holding only this kind, nodes holding this kind among
 * others, empty nodes, nodes holding only other kinds; within a band the node with less GPU free wins
 * ({@code 25 · (8000 − free)/8000}, integer). CPU-only demands score 0 everywhere (a random node).
 * Tightest-fitting GPUs within the node.
 */
final class ClusteringPolicy extends ScoringPolicy {

    private static final long BAND = MAX_SCORE / 4;
    private static final long MAX_GPU = (long) BestFitPolicy.MAX_GPU_MILLI;

    ClusteringPolicy(long seed) {
        super("clustering", seed);
    }

    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        if (!demand.needsGpu()) {
            return 0;
        }
        int kind = AllocationKinds.kindOf(demand.gpuCount(), demand.milliOn(state.node(node)));
        int kindsHeld = state.allocationKindCount(node);
        long fill = BAND * (MAX_GPU - state.gpuFreeOnNode(node)) / MAX_GPU;
        if (state.allocationsOfKind(node, kind) > 0) {
            return fill + (kindsHeld == 1 ? 3 * BAND : 2 * BAND);
        }
        return fill + (kindsHeld == 0 ? BAND : 0);
    }

    @Override
    boolean normalises() {
        return false;
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * DotProd (Tetris' alignment heuristic) as the FGD paper's simulator configures it (merged GPU
 * dimension, normalised by the largest node): score ⌊100 · (1 − ½ (free_cpu·cpu/128000² +
 * free_gpu·gpu/8000²))⌋, i.e. prefer the node whose free vector is least aligned with the demand;
 * tightest-fitting GPUs within the node.
 */
final class DotProductPolicy extends ScoringPolicy {

    DotProductPolicy(long seed) {
        super("dotprod", seed);
    }

    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        double cpu =
                state.freeCpu(node) / BestFitPolicy.MAX_CPU_MILLI * demand.cpuMilli() / BestFitPolicy.MAX_CPU_MILLI;
        double gpu = state.gpuFreeOnNode(node)
                / BestFitPolicy.MAX_GPU_MILLI
                * demand.totalMilliOn(state.node(node))
                / BestFitPolicy.MAX_GPU_MILLI;
        return (long) (MAX_SCORE * (1 - (cpu + gpu) / 2));
    }

    @Override
    boolean normalises() {
        return false;
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * BestFit as the FGD paper's simulator defines it: prefer the node left with the least free CPU and
 * GPU after placement, each normalised by the largest node (128 CPUs, 8 GPUs) and weighted one half:
 * {@code ⌊100 · (1 − ½ (freeCpu − cpu)/128000 − ½ (freeGpu − gpu)/8000)⌋}; within the node the GPU
 * with the least free share that fits.
 */
final class BestFitPolicy extends ScoringPolicy {

    static final double MAX_CPU_MILLI = 128_000;
    static final double MAX_GPU_MILLI = 8_000;

    BestFitPolicy(long seed) {
        super("bestfit", seed);
    }

    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        double cpuLeft = state.freeCpu(node) - demand.cpuMilli();
        double gpuLeft = state.gpuFreeOnNode(node) - demand.totalMilliOn(state.node(node));
        double waste = 0.5 * cpuLeft / MAX_CPU_MILLI + 0.5 * gpuLeft / MAX_GPU_MILLI;
        return (long) ((1.0 - waste) * MAX_SCORE);
    }
}

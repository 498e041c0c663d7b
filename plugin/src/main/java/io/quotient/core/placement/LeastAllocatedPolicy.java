package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * The kube-scheduler's default scoring ({@code NodeResourcesFit} with the {@code LeastAllocated} strategy): prefer the
 * node left with the most free capacity after placement, CPU and GPU each as a share of the node's own capacity and
 * weighted equally; within the node the GPU with the least free share that fits (as the device plugin hands out
 * devices, the choice does not matter for whole GPUs). Spreads jobs: the placement of a cluster without a GPU-aware
 * scheduler, used by the replay's {@code static}, {@code fifo} and {@code kueue-like} baselines.
 */
final class LeastAllocatedPolicy extends ScoringPolicy {

    LeastAllocatedPolicy(long seed) {
        super("leastallocated", seed);
    }

    @Override
    long score(ClusterState state, int node, ResourceDemand demand) {
        long cpuCapacity = state.node(node).cpuMilli();
        long gpuCapacity = (long) state.gpuCount(node) * ResourceDemand.WHOLE;
        double cpuFree = cpuCapacity <= 0 ? 0 : (double) (state.freeCpu(node) - demand.cpuMilli()) / cpuCapacity;
        double gpuFree = gpuCapacity <= 0
                ? 0
                : (double) (state.gpuFreeOnNode(node) - demand.totalMilliOn(state.node(node))) / gpuCapacity;
        return (long) (0.5 * (cpuFree + gpuFree) * MAX_SCORE * 100);
    }
}

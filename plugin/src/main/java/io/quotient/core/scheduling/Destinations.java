package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where a moved job goes: the node (other than the one being freed) left with the least free GPU capacity after
 * taking it, and there the GPUs with the least free share that hold it, so that moves fill busy nodes and GPUs and
 * keep empty ones empty. Deterministic and cheap, as a reclaim may try many moves.
 */
final class Destinations {

    private Destinations() {}

    /** @param among the nodes to consider (those with free GPUs, for a GPU demand), or null for every node */
    static Optional<Allocation> bestFit(
            ClusterState state, ResourceDemand demand, int excluded, PlacementPolicy.NodeFilter filter, int[] among) {
        int bestNode = -1;
        long bestLeft = Long.MAX_VALUE;
        int count = among == null ? state.nodeCount() : among.length;
        for (int i = 0; i < count; i++) {
            int n = among == null ? i : among[i];
            if (n == excluded || !state.fits(n, demand) || !filter.accepts(state, n)) {
                continue;
            }
            long left = state.gpuFreeOnNode(n) - demand.totalMilliOn(state.node(n));
            if (left < bestLeft) {
                bestLeft = left;
                bestNode = n;
            }
        }
        if (bestNode < 0) {
            return Optional.empty();
        }
        int node = bestNode;
        int share = demand.needsGpu() ? demand.milliOn(state.node(node)) : 0;
        List<Integer> gpus = new ArrayList<>();
        for (int g = 0; g < state.gpuCount(node); g++) {
            if (demand.needsGpu() && state.gpuFree(node, g) >= share) {
                gpus.add(g);
            }
        }
        gpus.sort(Comparator.comparingInt((Integer g) -> state.gpuFree(node, g)).thenComparingInt(g -> g));
        int[] chosen = gpus.stream()
                .limit(demand.needsGpu() ? demand.gpuCount() : 0)
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        return Optional.of(new Allocation(node, chosen, share, demand.cpuMilli(), demand.memoryMib()));
    }

    /**
     * Whether the node still holds {@code reserve} once it takes {@code moving}, counting every GPU the moved job
     * takes as one the reserve could have used (a safe bound, whichever GPUs the move picks).
     */
    static boolean leavesRoom(ClusterState state, int node, ResourceDemand moving, ResourceDemand reserve) {
        if (state.freeCpu(node) - moving.cpuMilli() < reserve.cpuMilli()
                || state.freeMemory(node) - moving.memoryMib() < reserve.memoryMib()) {
            return false;
        }
        if (!reserve.needsGpu()) {
            return true;
        }
        int share = reserve.milliOn(state.node(node));
        int enough = 0;
        for (int g = 0; g < state.gpuCount(node); g++) {
            enough += state.gpuFree(node, g) >= share ? 1 : 0;
        }
        return enough - (moving.needsGpu() ? moving.gpuCount() : 0) >= reserve.gpuCount();
    }
}

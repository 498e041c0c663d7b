package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.GpuUnits;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where a moved job goes: the node (other than the one being freed) left with the least free GPU capacity after
 * taking it, and there the GPUs with the least free share that hold it, so that moves fill busy nodes and GPUs and
 * keep empty ones empty; or, for a fraction, another shared GPU of its own node. Deterministic and cheap, as a
 * reclaim may try many moves.
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
        List<Integer> gpus = new ArrayList<>();
        for (int g = 0; g < state.gpuCount(node); g++) {
            if (demand.needsGpu() && state.holds(node, g, demand)) {
                gpus.add(g);
            }
        }
        gpus.sort(Comparator.comparingLong((Integer g) -> state.gpuFreeUnits(node, g))
                .thenComparingInt(g -> g));
        int[] chosen = gpus.stream()
                .limit(demand.needsGpu() ? demand.gpuCount() : 0)
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        return Optional.of(Allocation.of(demand, node, state.node(node), chosen));
    }

    /**
     * For a fraction moved off one GPU of {@code node} (its allocation already released there): the node's other partly
     * used GPU left with the least free share after taking it, so that the move frees the GPU it held without opening
     * another, as the periodic rebalance packs fractions ({@link SharedGpuConsolidation}). Empty for a whole-GPU job.
     *
     * @param freedByEvictions per GPU of the node, the units ({@link GpuUnits}) that evictions of the same search freed there: a plan
     *                         applies its moves before its evictions, so a move may not count on them
     */
    static Optional<Allocation> sharedGpuOnNode(
            ClusterState state, int node, ResourceDemand moving, Allocation held, long[] freedByEvictions) {
        // the released allocation's CPU and memory are what the move takes back on the same node: no check needed
        if (!mayJoinSharedGpu(held)) {
            return Optional.empty();
        }
        long share = held.unitsPerGpu(state.node(node));
        long whole = GpuUnits.capacity(state.node(node));
        int best = -1;
        long bestFree = Long.MAX_VALUE;
        for (int g = 0; g < state.gpuCount(node); g++) {
            long free = state.gpuFreeUnits(node, g) - freedByEvictions[g];
            if (g != held.gpuIndices()[0] && free < whole && free >= share && free < bestFree) {
                best = g;
                bestFree = free;
            }
        }
        return best < 0
                ? Optional.empty()
                : Optional.of(new Allocation(
                        node,
                        new int[] {best},
                        held.milliPerGpu(),
                        moving.cpuMilli(),
                        moving.memoryMib(),
                        held.gpuMemoryMib()));
    }

    /** Whether a job holding {@code held} may move onto another shared GPU of its node: a fraction of one GPU. */
    static boolean mayJoinSharedGpu(Allocation held) {
        return held.isFractional() && held.gpuIndices().length == 1;
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
        int enough = 0;
        for (int g = 0; g < state.gpuCount(node); g++) {
            enough += state.holds(node, g, reserve) ? 1 : 0;
        }
        return enough - (moving.needsGpu() ? moving.gpuCount() : 0) >= reserve.gpuCount();
    }
}

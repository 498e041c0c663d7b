package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;

import java.util.Comparator;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Places fractions on GPUs that already host fractions before opening a fresh GPU, then defers to the
 * wrapped policy.
 *
 * <p>Why: in the service every GPU that hosts fractions is held whole by a reservation pod, so a fraction
 * on a fresh GPU takes a whole GPU away from whole-GPU jobs even when a shared GPU has room. The trace
 * simulator has no such cost, which is why the packing policies themselves do not weigh it. Among shared
 * GPUs the tightest fit wins (the least share left over), ties going to the lowest node, then GPU, index,
 * so the choice is deterministic.
 */
public final class SharedGpuFirstPolicy implements PlacementPolicy {

    private final PlacementPolicy fallback;

    public SharedGpuFirstPolicy(PlacementPolicy fallback) {
        this.fallback = fallback;
    }

    @Override
    public Optional<Allocation> place(ClusterState state, ResourceDemand demand, NodeFilter filter) {
        if (demand.needsGpu()) {
            Optional<Allocation> shared = tightestSharedFit(state, demand, filter);
            if (shared.isPresent()) {
                return shared;
            }
        }
        return fallback.place(state, demand, filter);
    }

    @Override
    public String name() {
        return fallback.name();
    }

    private static Optional<Allocation> tightestSharedFit(ClusterState state, ResourceDemand demand, NodeFilter filter) {
        Allocation best = null;
        long bestLeftover = Long.MAX_VALUE;
        for (int node = 0; node < state.nodeCount(); node++) {
            NodeSpec spec = state.node(node);
            int milli = demand.milliOn(spec);
            if (milli >= ResourceDemand.WHOLE || !state.fits(node, demand) || !filter.accepts(state, node)) {
                continue;
            }
            int[] gpus = tightestSharedGpus(state, node, milli, demand.gpuCount());
            if (gpus == null) {
                continue;
            }
            long leftover = 0;
            for (int gpu : gpus) {
                leftover += state.gpuFree(node, gpu) - milli;
            }
            if (leftover < bestLeftover) {
                bestLeftover = leftover;
                best = new Allocation(node, gpus, milli, demand.cpuMilli(), demand.memoryMib());
            }
        }
        return Optional.ofNullable(best);
    }

    /** The {@code count} partly used GPUs of the node with the least room that still fits, or null if too few. */
    private static int[] tightestSharedGpus(ClusterState state, int node, int milli, int count) {
        int[] chosen = IntStream.range(0, state.gpuCount(node))
                .filter(gpu -> state.gpuFree(node, gpu) < ResourceDemand.WHOLE && state.gpuFree(node, gpu) >= milli)
                .boxed()
                .sorted(Comparator.comparingInt((Integer gpu) -> state.gpuFree(node, gpu)).thenComparingInt(gpu -> gpu))
                .limit(count)
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        return chosen.length < count ? null : chosen;
    }
}

package io.quotient.core.cluster;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Per node, how many GPU allocations of each kind it holds (a whole-GPU job of k GPUs, a fraction on
 * k GPUs). Clustering policies place like with like, so they need it; the free capacity alone cannot
 * tell a node with two half-GPU jobs from one with a single 1-GPU job.
 */
public final class AllocationKinds {

    private final Map<Integer, Integer>[] counts;

    @SuppressWarnings("unchecked")
    AllocationKinds(int nodes) {
        counts = new Map[nodes];
    }

    private AllocationKinds(AllocationKinds other) {
        counts = other.counts.clone();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != null) {
                counts[i] = new HashMap<>(counts[i]);
            }
        }
    }

    /**
     * The kind of an allocation: 0 for CPU-only, {@code k} for k whole GPUs, {@code -k} for a fraction
     * on each of k GPUs.
     */
    public static int kindOf(int gpuCount, int milliPerGpu) {
        if (gpuCount == 0) {
            return 0;
        }
        return milliPerGpu >= ResourceDemand.WHOLE ? gpuCount : -gpuCount;
    }

    AllocationKinds copy() {
        return new AllocationKinds(this);
    }

    Map<Integer, Integer> of(int node) {
        return counts[node] == null ? Map.of() : Collections.unmodifiableMap(counts[node]);
    }

    void add(int node, Allocation a) {
        int kind = kindOf(a.gpuIndices().length, a.milliPerGpu());
        if (kind != 0) {
            if (counts[node] == null) {
                counts[node] = new HashMap<>(4);
            }
            counts[node].merge(kind, 1, Integer::sum);
        }
    }

    void remove(int node, Allocation a) {
        int kind = kindOf(a.gpuIndices().length, a.milliPerGpu());
        if (kind != 0 && counts[node] != null) {
            counts[node].computeIfPresent(kind, (k, c) -> c > 1 ? c - 1 : null);
        }
    }
}

package io.quotient.core.cluster;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Per node, how many GPU allocations of each kind it holds (a whole-GPU job of k GPUs, a fraction on
 * k GPUs). Clustering policies place like with like, so they need it; the free capacity alone cannot
 * tell a node with two half-GPU jobs from one with a single 1-GPU job.
 *
 * <p>Counted in an array per node, not a map: every allocation and release changes a count, and a reclaim search
 * releases and takes back capacity at each of its branches.
 */
public final class AllocationKinds {

    /** Per node, the count of each kind at {@link #slot}; null until the node holds one. */
    private final int[][] counts;
    /** Per node, how many kinds it holds at least one of. */
    private final int[] held;

    AllocationKinds(int nodes) {
        counts = new int[nodes][];
        held = new int[nodes];
    }

    private AllocationKinds(AllocationKinds other) {
        counts = new int[other.counts.length][];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = other.counts[i] == null ? null : other.counts[i].clone();
        }
        held = other.held.clone();
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

    /** Where a kind's count is kept: k whole GPUs at 2k - 1, a fraction on k GPUs at 2k (0, CPU-only, unused). */
    private static int slot(int kind) {
        return kind > 0 ? 2 * kind - 1 : -2 * kind;
    }

    private static int kindAt(int slot) {
        return slot % 2 == 1 ? (slot + 1) / 2 : -slot / 2;
    }

    AllocationKinds copy() {
        return new AllocationKinds(this);
    }

    /** How many allocations of the kind the node holds. */
    int count(int node, int kind) {
        int[] c = counts[node];
        int s = slot(kind);
        return kind == 0 || c == null || s >= c.length ? 0 : c[s];
    }

    /** How many kinds the node holds at least one allocation of. */
    int kinds(int node) {
        return held[node];
    }

    /** The node's kinds with their counts, read-only (for reports and tests: the policies ask {@link #count}). */
    Map<Integer, Integer> of(int node) {
        int[] c = counts[node];
        if (c == null) {
            return Map.of();
        }
        Map<Integer, Integer> kinds = new HashMap<>();
        for (int s = 1; s < c.length; s++) {
            if (c[s] > 0) {
                kinds.put(kindAt(s), c[s]);
            }
        }
        return Collections.unmodifiableMap(kinds);
    }

    void add(int node, Allocation a) {
        int kind = kindOf(a.gpuIndices().length, a.milliPerGpu());
        if (kind == 0) {
            return;
        }
        int s = slot(kind);
        if (counts[node] == null || s >= counts[node].length) {
            counts[node] = counts[node] == null ? new int[Math.max(s + 1, 5)] : Arrays.copyOf(counts[node], s + 1);
        }
        if (counts[node][s]++ == 0) {
            held[node]++;
        }
    }

    void remove(int node, Allocation a) {
        int kind = kindOf(a.gpuIndices().length, a.milliPerGpu());
        int[] c = counts[node];
        int s = slot(kind);
        if (kind != 0 && c != null && s < c.length && c[s] > 0 && --c[s] == 0) {
            held[node]--;
        }
    }
}

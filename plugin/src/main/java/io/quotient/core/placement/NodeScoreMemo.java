package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * Remembers, per node, (demand shape → decrease of the measure, its quantised score, share left, chosen GPU) results of an expensive scoring function in a
 * small direct-mapped table, valid while the node's {@link ClusterState#version(int) version} is unchanged. Most nodes do
 * not change between two placements and traces repeat a few dozen shapes, so nearly every score is a
 * hit. Only for scores that depend on nothing but the node's state and the demand's shape.
 */
final class NodeScoreMemo {

    private static final int SLOTS = 64;
    /**
     * One entry's fields side by side (version, CPU key, shape key, decrease bits, score, left and GPU), and the
     * entries of one slot for all nodes next to each other: the slot depends on the demand only, and a placement looks
     * up every node for one demand, so it walks the table in order instead of jumping a node's 64 slots per node (on
     * the 1,213-node cluster the table holds some 78,000 entries, far beyond the caches: a jump per node was a miss
     * per node, and the lookups were a third of the policy's time).
     */
    private static final int STRIDE = 6;

    private static final int VERSION = 0;
    private static final int CPU = 1;
    private static final int SHAPE = 2;
    private static final int DECREASE = 3;
    private static final int SCORE = 4;
    private static final int LEFT_AND_GPU = 5;

    private ClusterState state;
    private long[] entries = new long[0];
    private int nodes = -1;
    private double hitDecrease;
    private long hitScore;
    private int hitLeft;
    private int hitGpu;

    /**
     * Whether a result for this node state and demand is remembered; then (as after {@link #store}) see
     * {@link #score()}, {@link #decrease()}, {@link #left()} and {@link #gpu()}.
     */
    boolean lookup(ClusterState current, int node, ResourceDemand demand) {
        useFor(current);
        long shape = shapeKey(demand);
        int i = entry(node, demand.cpuMilli(), shape);
        if (entries[i + VERSION] == current.version(node)
                && entries[i + CPU] == demand.cpuMilli()
                && entries[i + SHAPE] == shape) {
            hitDecrease = Double.longBitsToDouble(entries[i + DECREASE]);
            hitScore = entries[i + SCORE];
            long leftAndGpu = entries[i + LEFT_AND_GPU];
            hitLeft = (int) (leftAndGpu >> 32);
            hitGpu = (int) leftAndGpu;
            return true;
        }
        return false;
    }

    void store(ClusterState current, int node, ResourceDemand demand, double decrease, long score, int left, int gpu) {
        useFor(current);
        long shape = shapeKey(demand);
        int i = entry(node, demand.cpuMilli(), shape);
        entries[i + VERSION] = current.version(node);
        entries[i + CPU] = demand.cpuMilli();
        entries[i + SHAPE] = shape;
        entries[i + DECREASE] = Double.doubleToRawLongBits(decrease);
        entries[i + SCORE] = score;
        entries[i + LEFT_AND_GPU] = ((long) left << 32) | (gpu & 0xFFFF_FFFFL);
        hitDecrease = decrease;
        hitScore = score;
        hitLeft = left;
        hitGpu = gpu;
    }

    long score() {
        return hitScore;
    }

    double decrease() {
        return hitDecrease;
    }

    int left() {
        return hitLeft;
    }

    int gpu() {
        return hitGpu;
    }

    /** The index of the first field of the node's entry in the demand's slot. */
    private int entry(int node, long cpu, long shape) {
        long h = (cpu * 0x9E3779B97F4A7C15L) ^ (shape * 0xC2B2AE3D27D4EB4FL);
        int slot = (int) ((h ^ (h >>> 29)) & (SLOTS - 1));
        return (slot * nodes + node) * STRIDE;
    }

    private static long shapeKey(ResourceDemand demand) {
        long share = demand.gpuMemoryMib() > 0 ? -demand.gpuMemoryMib() : demand.gpuMilli();
        return ((long) demand.gpuCount() << 40) ^ (share & 0xFF_FFFF_FFFFL);
    }

    /** Forgets everything when asked about another cluster state (or one whose node count changed). */
    private void useFor(ClusterState current) {
        if (current != state || nodes != current.nodeCount()) {
            reset(current);
        }
    }

    private void reset(ClusterState current) {
        state = current;
        nodes = current.nodeCount();
        entries = new long[nodes * SLOTS * STRIDE];
        for (int i = VERSION; i < entries.length; i += STRIDE) {
            entries[i] = -1;
        }
    }
}

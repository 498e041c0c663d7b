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

    private ClusterState state;
    private long[] versions = new long[0];
    private long[] cpuKeys = new long[0];
    private long[] shapeKeys = new long[0];
    private double[] decreases = new double[0];
    private long[] scores = new long[0];
    private int[] lefts = new int[0];
    private int[] gpus = new int[0];
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
        if (current != state || nodes != current.nodeCount()) {
            reset(current);
        }
        long shape = shapeKey(demand);
        int i = slot(node, demand.cpuMilli(), shape);
        if (versions[i] == current.version(node) && cpuKeys[i] == demand.cpuMilli() && shapeKeys[i] == shape) {
            hitDecrease = decreases[i];
            hitScore = scores[i];
            hitLeft = lefts[i];
            hitGpu = gpus[i];
            return true;
        }
        return false;
    }

    void store(ClusterState current, int node, ResourceDemand demand, double decrease, long score, int left, int gpu) {
        int i = slot(node, demand.cpuMilli(), shapeKey(demand));
        versions[i] = current.version(node);
        cpuKeys[i] = demand.cpuMilli();
        shapeKeys[i] = shapeKey(demand);
        decreases[i] = decrease;
        scores[i] = score;
        hitDecrease = decrease;
        hitScore = score;
        hitLeft = left;
        hitGpu = gpu;
        lefts[i] = left;
        gpus[i] = gpu;
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

    private static int slot(int node, long cpu, long shape) {
        long h = (cpu * 0x9E3779B97F4A7C15L) ^ (shape * 0xC2B2AE3D27D4EB4FL);
        return node * SLOTS + (int) ((h ^ (h >>> 29)) & (SLOTS - 1));
    }

    private static long shapeKey(ResourceDemand demand) {
        long share = demand.gpuMemoryMib() > 0 ? -demand.gpuMemoryMib() : demand.gpuMilli();
        return ((long) demand.gpuCount() << 40) ^ (share & 0xFF_FFFF_FFFFL);
    }

    private void reset(ClusterState current) {
        state = current;
        nodes = current.nodeCount();
        versions = new long[nodes * SLOTS];
        java.util.Arrays.fill(versions, -1);
        cpuKeys = new long[nodes * SLOTS];
        shapeKeys = new long[nodes * SLOTS];
        decreases = new double[nodes * SLOTS];
        scores = new long[nodes * SLOTS];
        lefts = new int[nodes * SLOTS];
        gpus = new int[nodes * SLOTS];
    }
}

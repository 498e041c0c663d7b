package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * Remembers, per node, (demand shape → score, chosen GPU) results of an expensive scoring function in a
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
    private long[] scores = new long[0];
    private int[] gpus = new int[0];
    private int nodes = -1;
    private long hitScore;
    private int hitGpu;

    /** Whether a result for this node state and demand is remembered; then see {@link #score()} and {@link #gpu()}. */
    boolean lookup(ClusterState current, int node, ResourceDemand demand) {
        if (current != state || nodes != current.nodeCount()) {
            reset(current);
        }
        long shape = shapeKey(demand);
        int i = slot(node, demand.cpuMilli(), shape);
        if (versions[i] == current.version(node) && cpuKeys[i] == demand.cpuMilli() && shapeKeys[i] == shape) {
            hitScore = scores[i];
            hitGpu = gpus[i];
            return true;
        }
        return false;
    }

    void store(ClusterState current, int node, ResourceDemand demand, long score, int gpu) {
        int i = slot(node, demand.cpuMilli(), shapeKey(demand));
        versions[i] = current.version(node);
        cpuKeys[i] = demand.cpuMilli();
        shapeKeys[i] = shapeKey(demand);
        scores[i] = score;
        gpus[i] = gpu;
    }

    long score() {
        return hitScore;
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
        scores = new long[nodes * SLOTS];
        gpus = new int[nodes * SLOTS];
    }
}

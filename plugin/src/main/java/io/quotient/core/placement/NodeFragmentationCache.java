package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import java.util.Arrays;

/**
 * A {@link NodeMeasure} of every node of one cluster state, recomputed only for nodes whose
 * {@link ClusterState#version(int) version} changed. Versions are only comparable within one state
 * object (copies diverge with equal versions), so a different state object starts afresh.
 */
final class NodeFragmentationCache {

    private final NodeMeasure measure;
    private ClusterState state;
    private long[] versions = new long[0];
    private double[] values = new double[0];
    private int[] scratch = new int[0];

    NodeFragmentationCache(NodeMeasure measure) {
        this.measure = measure;
    }

    double of(ClusterState current, int node) {
        if (current != state || versions.length != current.nodeCount()) {
            reset(current);
        }
        if (versions[node] != current.version(node)) {
            values[node] = compute(current, node);
            versions[node] = current.version(node);
        }
        return values[node];
    }

    private double compute(ClusterState current, int node) {
        int gpus = current.gpuCount(node);
        if (scratch.length < gpus) {
            scratch = new int[gpus];
        }
        current.copyGpuFree(node, scratch);
        return measure.of(current.node(node).gpuModel(), current.freeCpu(node), scratch, gpus);
    }

    private void reset(ClusterState current) {
        state = current;
        versions = new long[current.nodeCount()];
        values = new double[current.nodeCount()];
        Arrays.fill(versions, -1);
    }
}

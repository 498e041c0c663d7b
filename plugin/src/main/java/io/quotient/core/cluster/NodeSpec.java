package io.quotient.core.cluster;

import java.util.Objects;

/**
 * What a node offers, as discovered (GPU-feature-discovery labels, node capacity, the enforcer's report).
 * Immutable; the changing part (what is free) lives in {@link ClusterState}.
 *
 * @param gpuModel     product name matched exactly against a request's allowed models; empty for CPU-only nodes
 * @param gpuMemoryMib memory of one GPU; converts MiB requests into GPU shares on this node
 */
public record NodeSpec(String name, long cpuMilli, long memoryMib, int gpuCount, String gpuModel, long gpuMemoryMib) {

    public NodeSpec {
        Objects.requireNonNull(name, "node name");
        gpuModel = gpuModel == null ? "" : gpuModel;
        if (cpuMilli < 0 || memoryMib < 0 || gpuCount < 0 || gpuMemoryMib < 0) {
            throw new IllegalArgumentException("node " + name + ": capacities must not be negative");
        }
    }
}

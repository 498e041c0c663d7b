package io.quotient.core.cluster;

import java.util.Arrays;

/**
 * A decided placement on one node: which GPUs (by index on the node) and how much of each.
 * {@code gpuIndices} is owned by this record; callers must not mutate it.
 */
public record Allocation(int nodeIndex, int[] gpuIndices, int milliPerGpu, long cpuMilli, long memoryMib) {

    public Allocation {
        gpuIndices = gpuIndices == null ? new int[0] : gpuIndices;
    }

    public long totalGpuMilli() {
        return (long) gpuIndices.length * milliPerGpu;
    }

    public boolean isFractional() {
        return gpuIndices.length > 0 && milliPerGpu < ResourceDemand.WHOLE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Allocation a
                && a.nodeIndex == nodeIndex
                && Arrays.equals(a.gpuIndices, gpuIndices)
                && a.milliPerGpu == milliPerGpu
                && a.cpuMilli == cpuMilli
                && a.memoryMib == memoryMib;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * nodeIndex + Arrays.hashCode(gpuIndices)) + milliPerGpu;
    }

    @Override
    public String toString() {
        return "Allocation[node=" + nodeIndex + ", gpus=" + Arrays.toString(gpuIndices) + ", milliPerGpu=" + milliPerGpu
                + ", cpuMilli=" + cpuMilli + ", memoryMib=" + memoryMib + "]";
    }
}

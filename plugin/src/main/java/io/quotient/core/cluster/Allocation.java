package io.quotient.core.cluster;

import java.util.Arrays;

/**
 * A decided placement on one node: which GPUs (by index on the node) and how much of each.
 * {@code gpuIndices} is owned by this record; callers must not mutate it.
 *
 * @param milliPerGpu  the share of each GPU, what quotas and fair shares charge (for a MiB request its MiB rounded
 *                     up to thousandths of the node's GPU)
 * @param gpuMemoryMib for a MiB request, the MiB it takes from each GPU, exactly ({@link GpuUnits}); 0 for a
 *                     fraction or whole GPUs, which take {@code milliPerGpu}
 */
public record Allocation(
        int nodeIndex, int[] gpuIndices, int milliPerGpu, long cpuMilli, long memoryMib, long gpuMemoryMib) {

    public Allocation {
        gpuIndices = gpuIndices == null ? new int[0] : gpuIndices;
    }

    /** An allocation of a share given in milli (a fraction or whole GPUs), or of no GPU. */
    public Allocation(int nodeIndex, int[] gpuIndices, int milliPerGpu, long cpuMilli, long memoryMib) {
        this(nodeIndex, gpuIndices, milliPerGpu, cpuMilli, memoryMib, 0);
    }

    /** What the demand takes on these GPUs of the node: its share there, its CPU and memory, its MiB if any. */
    public static Allocation of(ResourceDemand demand, int nodeIndex, NodeSpec node, int[] gpuIndices) {
        int milli = demand.needsGpu() ? demand.milliOn(node) : 0;
        return new Allocation(
                nodeIndex, gpuIndices, milli, demand.cpuMilli(), demand.memoryMib(), demand.gpuMemoryMib());
    }

    /** Units ({@link GpuUnits}) it takes from each of its GPUs on the node. */
    public long unitsPerGpu(NodeSpec node) {
        return GpuUnits.taken(node, milliPerGpu, gpuMemoryMib);
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
                && a.memoryMib == memoryMib
                && a.gpuMemoryMib == gpuMemoryMib;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * nodeIndex + Arrays.hashCode(gpuIndices)) + milliPerGpu;
    }

    @Override
    public String toString() {
        return "Allocation[node=" + nodeIndex + ", gpus=" + Arrays.toString(gpuIndices) + ", milliPerGpu=" + milliPerGpu
                + ", cpuMilli=" + cpuMilli + ", memoryMib=" + memoryMib
                + (gpuMemoryMib > 0 ? ", gpuMemoryMib=" + gpuMemoryMib : "") + "]";
    }
}

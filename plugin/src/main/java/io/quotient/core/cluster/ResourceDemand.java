package io.quotient.core.cluster;

import java.util.Set;

/**
 * What one placement needs from one node: CPU, memory and {@code gpuCount} GPUs each with a share free.
 * The share is either fixed in milli-GPU ({@code gpuMilli}, 1..1000) or given in MiB of GPU memory
 * ({@code gpuMemoryMib} &gt; 0, then {@code gpuMilli} is 0) and converted with the chosen node's GPU memory.
 *
 * @param allowedModels GPU models the job may run on; empty means any
 */
public record ResourceDemand(
        long cpuMilli, long memoryMib, int gpuCount, int gpuMilli, long gpuMemoryMib, Set<String> allowedModels) {

    public static final int WHOLE = 1000;

    public ResourceDemand {
        allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
        if (cpuMilli < 0 || memoryMib < 0 || gpuCount < 0) {
            throw new IllegalArgumentException("cpu, memory and GPU count must not be negative");
        }
        if (gpuCount > 0 && gpuMemoryMib <= 0 && (gpuMilli < 1 || gpuMilli > WHOLE)) {
            throw new IllegalArgumentException("gpuMilli must be in 1..1000 when GPUs are requested, was " + gpuMilli);
        }
    }

    public static ResourceDemand cpuOnly(long cpuMilli, long memoryMib) {
        return new ResourceDemand(cpuMilli, memoryMib, 0, 0, 0, Set.of());
    }

    public static ResourceDemand gpus(long cpuMilli, long memoryMib, int gpuCount, int gpuMilli, Set<String> models) {
        return new ResourceDemand(cpuMilli, memoryMib, gpuCount, gpuMilli, 0, models);
    }

    public boolean needsGpu() {
        return gpuCount > 0;
    }

    /**
     * Share of one GPU this demand is charged on a node of that spec (quotas, fair shares, scores); MiB round up so
     * the share always covers the memory. Whether it fits a GPU is decided exactly, by {@link #unitsOn}.
     */
    public int milliOn(NodeSpec node) {
        if (gpuMemoryMib <= 0) {
            return gpuMilli;
        }
        if (node.gpuMemoryMib() <= 0) {
            return Integer.MAX_VALUE; // unknown GPU memory: a MiB request cannot be honoured there
        }
        long milli = (gpuMemoryMib * WHOLE + node.gpuMemoryMib() - 1) / node.gpuMemoryMib();
        return milli > WHOLE ? Integer.MAX_VALUE : (int) milli;
    }

    /** Units ({@link GpuUnits}) it takes from each of its GPUs on a node of that spec: MiB exactly, not rounded. */
    public long unitsOn(NodeSpec node) {
        return GpuUnits.taken(node, gpuMilli, gpuMemoryMib);
    }

    public boolean allowsModel(String model) {
        return allowedModels.isEmpty() || allowedModels.contains(model);
    }

    /** Total GPU milli this demand takes on that node (count × share). */
    public long totalMilliOn(NodeSpec node) {
        return gpuCount == 0 ? 0 : (long) gpuCount * milliOn(node);
    }
}

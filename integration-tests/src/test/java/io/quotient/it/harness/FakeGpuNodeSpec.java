package io.quotient.it.harness;

import java.util.regex.Pattern;

/**
 * What a fake GPU node offers. Build with {@link #of} and adjust with the {@code with*} methods.
 *
 * @param namePrefix   the node's name is this plus a random suffix, unique per test
 * @param gpus         {@code nvidia.com/gpu} capacity and the {@code nvidia.com/gpu.count} label
 * @param gpuMemoryMib memory of each GPU ({@code nvidia.com/gpu.memory} label, report)
 * @param model        {@code nvidia.com/gpu.product}, as GPU-feature-discovery writes it (no spaces)
 * @param cpu          CPU cores of the node
 * @param memoryMib    node memory
 */
public record FakeGpuNodeSpec(String namePrefix, int gpus, long gpuMemoryMib, String model, int cpu, long memoryMib) {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final int DEFAULT_CPU = 16;
    private static final long DEFAULT_MEMORY_MIB = 65_536;

    public FakeGpuNodeSpec {
        if (namePrefix == null || !DNS_LABEL.matcher(namePrefix).matches()) {
            throw new IllegalArgumentException("node name prefix '" + namePrefix
                    + "' must be lower-case letters, digits and '-', at most 42 characters");
        }
        if (gpus < 0 || gpuMemoryMib <= 0 || cpu <= 0 || memoryMib <= 0) {
            throw new IllegalArgumentException("fake node " + namePrefix + ": gpus must be >= 0 and gpuMemoryMib, cpu, "
                    + "memoryMib > 0 (got " + gpus + ", " + gpuMemoryMib + ", " + cpu + ", " + memoryMib + ")");
        }
        if (model == null || !LABEL_VALUE.matcher(model).matches()) {
            throw new IllegalArgumentException("GPU model '" + model
                    + "' is not a label value; GPU-feature-discovery writes e.g. NVIDIA-A100-SXM4-80GB");
        }
    }

    /** A node with 16 CPUs and 64 GiB of memory. */
    public static FakeGpuNodeSpec of(String namePrefix, int gpus, long gpuMemoryMib, String model) {
        return new FakeGpuNodeSpec(namePrefix, gpus, gpuMemoryMib, model, DEFAULT_CPU, DEFAULT_MEMORY_MIB);
    }

    public FakeGpuNodeSpec withCpu(int cores) {
        return new FakeGpuNodeSpec(namePrefix, gpus, gpuMemoryMib, model, cores, memoryMib);
    }

    public FakeGpuNodeSpec withMemoryMib(long mib) {
        return new FakeGpuNodeSpec(namePrefix, gpus, gpuMemoryMib, model, cpu, mib);
    }
}

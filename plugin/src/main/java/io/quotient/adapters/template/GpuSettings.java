package io.quotient.adapters.template;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a GPU request turns into on a pod: the request annotations (Run:ai / KAI compatible), the
 * {@code nvidia.com/gpu} count for whole GPUs, and for fractions the env that binds the container to the
 * reserved GPUs and tells it its memory request and limit in bytes (per GPU, from the node's GPU memory).
 */
record GpuSettings(int wholeGpus, Map<String, String> annotations, Map<String, String> env) {

    static final String FRACTION = "gpu-fraction";
    static final String FRACTION_LIMIT = "gpu-fraction-limit";
    static final String MEMORY = "gpu-memory";
    static final String MEMORY_LIMIT = "gpu-memory-limit";
    static final String NUM_DEVICES = "gpu-fraction-num-devices";
    static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
    static final String MEMORY_REQUEST_ENV = "GPU_MEMORY_REQUEST";
    static final String MEMORY_LIMIT_ENV = "GPU_MEMORY_LIMIT";
    static final String RUNAI_MEMORY_LIMIT_ENV = "RUNAI_GPU_MEMORY_LIMIT";
    private static final long MIB = 1024L * 1024L;

    static GpuSettings of(GpuRequest request, List<GpuBinding> gpus, long gpuMemoryMib, String node) {
        if (request instanceof GpuRequest.WholeGpus whole) {
            return new GpuSettings(whole.count(), Map.of(), Map.of());
        }
        if (request instanceof GpuRequest.Fraction f) {
            requireMemory(gpuMemoryMib, node);
            int limitMilli = Math.max(f.limitMilli(), f.milli());
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put(FRACTION, milliToDecimal(f.milli()));
            annotations.put(FRACTION_LIMIT, milliToDecimal(limitMilli));
            annotations.put(NUM_DEVICES, Integer.toString(f.devices()));
            long requestBytes = f.milli() * gpuMemoryMib * MIB / 1000;
            long limitBytes = limitMilli * gpuMemoryMib * MIB / 1000;
            return new GpuSettings(0, annotations, fractionEnv(gpus, f.devices(), requestBytes, limitBytes, node));
        }
        if (request instanceof GpuRequest.Memory m) {
            long limitMib = Math.max(m.limitMib(), m.mib());
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put(MEMORY, Long.toString(m.mib()));
            annotations.put(MEMORY_LIMIT, Long.toString(limitMib));
            annotations.put(NUM_DEVICES, Integer.toString(m.devices()));
            return new GpuSettings(0, annotations, fractionEnv(gpus, m.devices(), m.mib() * MIB, limitMib * MIB, node));
        }
        return new GpuSettings(0, Map.of(), Map.of());
    }

    private static Map<String, String> fractionEnv(
            List<GpuBinding> gpus, int devices, long requestBytes, long limitBytes, String node) {
        if (gpus.size() != devices) {
            throw new IllegalArgumentException("the placement on " + node + " lists " + gpus.size()
                    + " GPUs but the request asks for the fraction on " + devices);
        }
        for (GpuBinding gpu : gpus) {
            if (gpu.uuid() == null || gpu.uuid().isBlank()) {
                throw new IllegalArgumentException("GPU " + gpu.index() + " of " + node + " has no UUID yet; a "
                        + "fractional job is rendered only after its reservation pod reports the GPU UUID");
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put(VISIBLE_DEVICES, gpus.stream().map(GpuBinding::uuid).collect(Collectors.joining(",")));
        env.put(MEMORY_REQUEST_ENV, Long.toString(requestBytes));
        env.put(MEMORY_LIMIT_ENV, Long.toString(limitBytes));
        env.put(RUNAI_MEMORY_LIMIT_ENV, Long.toString(limitBytes));
        return env;
    }

    private static void requireMemory(long gpuMemoryMib, String node) {
        if (gpuMemoryMib <= 0) {
            throw new IllegalArgumentException("node " + node + " reports no GPU memory (label nvidia.com/gpu.memory);"
                    + " a fractional job's memory limits cannot be computed there");
        }
    }

    /** 300 → "0.3", 1000 → "1": the annotation format users write. */
    static String milliToDecimal(int milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
    }
}

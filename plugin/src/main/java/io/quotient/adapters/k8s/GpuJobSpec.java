package io.quotient.adapters.k8s;

import java.util.List;
import java.util.Map;

/**
 * A GpuJob's spec: the request as the user wrote it (field names of the REST API and CONVENTIONS.md).
 * Every field may be null (absent in the resource).
 */
public record GpuJobSpec(String team, String name, String template, String image, List<String> command,
                         List<String> args, Gpu gpu, Integer gpuDevices, List<String> gpuModels, Long cpuMilli,
                         Long memoryMib, Integer priority, Boolean preemptible, Long minRuntimeSeconds,
                         Map<String, String> labels, Map<String, String> env) {

    /** {@code spec.gpu}: whole GPUs, or a fraction with its limit, or MiB with its limit. */
    public record Gpu(Integer count, Double fraction, Double fractionLimit, Long memoryMib, Long memoryLimitMib) {
    }
}

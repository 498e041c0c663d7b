package io.quotient.core.model;

import io.quotient.core.request.ForeignGpuRequests;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one pod template of a workload Quotient did not create (a batch Job, a PyTorchJob replica, a TrainJob node)
 * says about GPUs, exactly as its author wrote it: the {@code nvidia.com/gpu} limits of its containers and the
 * Run:ai/KAI request annotations ({@code gpu-fraction}, {@code gpu-memory}, ...). {@link ForeignGpuRequests} turns it
 * into a {@link GpuRequest}. Field paths are kept so that a refusal names what the author must fix.
 *
 * @param annotationsField where the annotations were read, e.g. {@code spec.template.metadata.annotations}
 * @param annotations      the pod template's annotations (only the GPU ones are read)
 * @param gpuLimits        field path of each container's {@code nvidia.com/gpu} limit → its quantity as written,
 *                         in container order; containers without one are left out
 */
public record PodGpuAsk(String annotationsField, Map<String, String> annotations, Map<String, String> gpuLimits) {

    public PodGpuAsk {
        Objects.requireNonNull(annotationsField, "annotationsField");
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        gpuLimits = gpuLimits == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(gpuLimits));
    }
}

package io.quotient.adapters.template;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import java.util.List;
import java.util.Map;

/**
 * Places a pod that Quotient did not render but admits (a Notebook's StatefulSet pod, a bare GPU pod) the way the
 * template renderer places a rendered one, with the same pieces: the job's labels, a required node affinity to the
 * chosen node added to the author's own ({@link NodePinning}), and for a share of a GPU the request annotations and the
 * env binding the GPU container to the reserved GPU ({@link GpuSettings}, the container named by
 * {@code gpu-fraction-container-name} as for templates) with no {@code nvidia.com/gpu} of its own (the reservation pod
 * holds the GPU). Whole GPUs stay as the author asked for them: the device plugin hands them out on the chosen node.
 */
public final class AdmittedPod {

    private AdmittedPod() {}

    /**
     * Changes {@code pod} (a Pod object as plain maps: metadata, spec) in place.
     *
     * @throws IllegalArgumentException when a share's GPU UUIDs or the node's GPU memory are unknown, or the
     *                                  container named for the GPU is missing
     */
    public static void place(
            Map<String, Object> pod,
            GpuRequest gpu,
            List<GpuBinding> gpus,
            long gpuMemoryMib,
            String node,
            Map<String, String> labels) {
        PodTemplate template = new PodTemplate("pod", pod);
        ContainerEdits.putAll(template.metadata(), "labels", labels);
        Map<String, Object> podSpec = template.spec();
        NodePinning.pin(podSpec, node);
        if (TemplateRenderer.fractional(gpu)) {
            GpuSettings settings = GpuSettings.of(gpu, gpus, gpuMemoryMib, node);
            ContainerEdits.putAll(template.metadata(), "annotations", settings.annotations());
            ContainerEdits.removeGpuResources(podSpec);
            ContainerEdits.setEnv(template.gpuContainer(), settings.env());
        }
    }
}

package io.quotient.adapters.template;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU binding of a share for a workload whose containers cannot be changed once it is placed (a batch Job's pod
 * template is immutable after creation; only its labels, annotations and scheduling directives may change while it
 * is suspended): at admission its GPU container gets the env a rendered share gets ({@link GpuSettings}), each
 * variable read through the downward API from a pod annotation; at placement the pod template gets those annotations
 * with the values of the reserved GPU, the way a rendered share gets the env itself. Before placement the annotations
 * are absent, but so are the pods: the workload is suspended.
 */
public final class DeferredGpuBinding {

    /** Where each variable's value is kept on the pod template, e.g. {@code quotient.io/env.NVIDIA_VISIBLE_DEVICES}. */
    public static final String ANNOTATION_PREFIX = "quotient.io/env.";

    private static final List<String> VARIABLES = List.of(
            GpuSettings.VISIBLE_DEVICES,
            GpuSettings.MEMORY_REQUEST_ENV,
            GpuSettings.MEMORY_LIMIT_ENV,
            GpuSettings.RUNAI_MEMORY_LIMIT_ENV);

    private DeferredGpuBinding() {}

    /** Whether a request is a share of a GPU (a fraction or MiB), bound through these variables. */
    public static boolean appliesTo(GpuRequest request) {
        return TemplateRenderer.fractional(request);
    }

    /** The variables a share's GPU container gets. */
    public static List<String> variables() {
        return VARIABLES;
    }

    /** One env entry of the GPU container: the variable, read from its annotation. */
    public static Map<String, Object> envReference(String variable) {
        Map<String, Object> fieldRef = new LinkedHashMap<>();
        fieldRef.put("apiVersion", "v1"); // the API server's default: the stored entry is then the same
        fieldRef.put("fieldPath", fieldPath(variable));
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", variable);
        entry.put("valueFrom", Map.of("fieldRef", fieldRef));
        return entry;
    }

    /** The downward API path of the annotation that holds a variable's value. */
    public static String fieldPath(String variable) {
        return "metadata.annotations['" + ANNOTATION_PREFIX + variable + "']";
    }

    /**
     * Where the GPU container of a pod template (plain maps with metadata and spec) is: {@code containers} or
     * {@code initContainers} and its index; the container named by {@code gpu-fraction-container-name}, else the first.
     *
     * @throws IllegalArgumentException naming {@code path} when the template has no such container
     */
    public static ContainerAt gpuContainer(String path, Map<String, Object> podTemplate) {
        PodTemplate template = new PodTemplate(path, podTemplate);
        Map<String, Object> container = template.gpuContainer();
        for (String list : List.of("containers", "initContainers")) {
            Object containers = template.spec().get(list);
            if (containers instanceof List<?> items) {
                for (int i = 0; i < items.size(); i++) {
                    if (items.get(i) == container) {
                        return new ContainerAt(list, i);
                    }
                }
            }
        }
        throw new IllegalStateException(path + ": the GPU container was found but not in the pod spec");
    }

    /** A container's place in a pod spec. */
    public record ContainerAt(String list, int index) {}

    /** The annotations that give the variables their values for this placement (the reserved GPUs' UUIDs known). */
    public static Map<String, String> annotations(
            GpuRequest request, List<GpuBinding> gpus, long gpuMemoryMib, String node) {
        Map<String, String> annotations = new LinkedHashMap<>();
        GpuSettings.of(request, gpus, gpuMemoryMib, node)
                .env()
                .forEach((variable, value) -> annotations.put(ANNOTATION_PREFIX + variable, value));
        return annotations;
    }
}

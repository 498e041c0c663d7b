package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Sets fields on one container mapping of a pod template. Values are set as data, never parsed. */
final class ContainerEdits {

    static final String GPU_RESOURCE = "nvidia.com/gpu";

    private ContainerEdits() {}

    /** Sets (or replaces) an environment variable; a template's {@code valueFrom} of that name is dropped. */
    static void setEnv(Map<String, Object> container, String name, String value) {
        List<Object> env = Trees.childList(container, "env");
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("value", value);
        for (int i = 0; i < env.size(); i++) {
            if (env.get(i) instanceof Map<?, ?> existing && name.equals(existing.get("name"))) {
                env.set(i, entry);
                return;
            }
        }
        env.add(entry);
    }

    static void setEnv(Map<String, Object> container, Map<String, String> values) {
        values.forEach((name, value) -> setEnv(container, name, value));
    }

    static void setStrings(Map<String, Object> container, String field, List<String> values) {
        if (!values.isEmpty()) {
            container.put(field, new ArrayList<>(values));
        }
    }

    /** Sets a quantity in both {@code requests} and {@code limits} (extended resources need them equal). */
    static void setRequestAndLimit(Map<String, Object> container, String resource, String quantity) {
        Map<String, Object> resources = Trees.childMap(container, "resources");
        Trees.childMap(resources, "requests").put(resource, quantity);
        Trees.childMap(resources, "limits").put(resource, quantity);
    }

    static void setRequest(Map<String, Object> container, String resource, String quantity) {
        Trees.childMap(Trees.childMap(container, "resources"), "requests").put(resource, quantity);
    }

    /**
     * Removes {@code nvidia.com/gpu} from every container and init container of the pod spec: the plan alone
     * decides how many whole GPUs a pod gets, so a template cannot take GPUs the accounting does not know of.
     */
    static void removeGpuResources(Map<String, Object> podSpec) {
        for (String list : List.of("containers", "initContainers")) {
            if (!(podSpec.get(list) instanceof List<?> containers)) {
                continue;
            }
            for (Object c : containers) {
                if (c instanceof Map<?, ?> container && container.get("resources") instanceof Map<?, ?> resources) {
                    for (Object kind : List.of("requests", "limits")) {
                        if (resources.get(kind) instanceof Map<?, ?> quantities) {
                            quantities.remove(GPU_RESOURCE);
                        }
                    }
                }
            }
        }
    }

    /** Adds entries to a string map of the object (labels, annotations); later entries win. */
    static void putAll(Map<String, Object> metadata, String field, Map<String, String> values) {
        Trees.childMap(metadata, field).putAll(values);
    }
}

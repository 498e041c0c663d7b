package io.quotient.adapters.template;

import java.util.List;
import java.util.Map;

/**
 * One pod template inside a workload document: a mapping with {@code metadata} and {@code spec}.
 * Knows which container is the main one (image, command, env of the request) and which gets the GPU.
 *
 * @param path where the template sits in the document, for error messages
 */
record PodTemplate(String path, Map<String, Object> node) {

    /** Annotation naming the container that gets the GPU (default: the first container). */
    static final String GPU_CONTAINER_NAME = "gpu-fraction-container-name";
    /** Annotation saying the named GPU container is an init container ({@code InitContainer}). */
    static final String GPU_CONTAINER_TYPE = "gpu-fraction-container-type";

    static final String INIT_CONTAINER = "InitContainer";

    Map<String, Object> metadata() {
        return Trees.childMap(node, "metadata");
    }

    Map<String, Object> spec() {
        return Trees.requiredMap(node, "spec", path);
    }

    List<Map<String, Object>> containers() {
        List<Object> list = Trees.requiredList(spec(), "containers", path + ".spec");
        if (list.isEmpty()) {
            throw new IllegalArgumentException(path + ".spec.containers is empty; a pod needs a container");
        }
        return Trees.maps(list, path + ".spec.containers");
    }

    /** The first regular container: it runs the request's image, command, args and env. */
    Map<String, Object> mainContainer() {
        return containers().get(0);
    }

    /** The container that gets the GPU: the one the template names by annotation, else the main container. */
    Map<String, Object> gpuContainer() {
        Object named = Trees.childMap(metadata(), "annotations").get(GPU_CONTAINER_NAME);
        if (named == null) {
            return mainContainer();
        }
        boolean init =
                INIT_CONTAINER.equals(Trees.childMap(metadata(), "annotations").get(GPU_CONTAINER_TYPE));
        String listName = init ? "initContainers" : "containers";
        List<Object> list = Trees.requiredList(spec(), listName, path + ".spec");
        for (Map<String, Object> container : Trees.maps(list, path + ".spec." + listName)) {
            if (named.equals(container.get("name"))) {
                return container;
            }
        }
        throw new IllegalArgumentException(path + ".metadata.annotations." + GPU_CONTAINER_NAME + " names '" + named
                + "', but " + path + ".spec." + listName + " has no container of that name");
    }

    /** Checks what rendering relies on: named containers with an image, and a resolvable GPU container. */
    void validate() {
        if (node.containsKey("metadata") && !(node.get("metadata") instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(path + ".metadata must be a mapping");
        }
        if (spec().containsKey("nodeName")) {
            throw new IllegalArgumentException(path + ".spec.nodeName is set; remove it: Quotient pins every pod "
                    + "to the node its plan chose, through node affinity, so the scheduler still checks the fit");
        }
        List<Map<String, Object>> containers = containers();
        for (int i = 0; i < containers.size(); i++) {
            Map<String, Object> container = containers.get(i);
            String where = path + ".spec.containers[" + i + "]";
            if (!(container.get("name") instanceof String name) || name.isBlank()) {
                throw new IllegalArgumentException(where + " has no name");
            }
            if (!(container.get("image") instanceof String image) || image.isBlank()) {
                throw new IllegalArgumentException(where + " (" + container.get("name")
                        + ") has no image; give a default image so that requests without one still run");
            }
        }
        gpuContainer();
    }
}

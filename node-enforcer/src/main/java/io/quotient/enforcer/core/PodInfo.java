package io.quotient.enforcer.core;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the enforcer needs to know of a pod on its node, free of any Kubernetes client type. */
public record PodInfo(
        String uid,
        String namespace,
        String name,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<ContainerInfo> containers) {

    public PodInfo {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        containers = List.copyOf(containers);
    }

    public Optional<ContainerInfo> containerById(String containerId) {
        return containers.stream()
                .filter(c -> containerId.equals(c.containerId()))
                .findFirst();
    }

    public Optional<ContainerInfo> container(String containerName, boolean init) {
        return containers.stream()
                .filter(c -> c.init() == init && c.name().equals(containerName))
                .findFirst();
    }

    /** The first regular container: the one that gets the GPU when the pod does not name one. */
    public Optional<ContainerInfo> firstContainer() {
        return containers.stream().filter(c -> !c.init()).findFirst();
    }

    public String qualifiedName() {
        return namespace + "/" + name;
    }
}

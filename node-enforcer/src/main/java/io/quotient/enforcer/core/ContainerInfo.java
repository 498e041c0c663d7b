package io.quotient.enforcer.core;

import java.util.Map;

/**
 * One container of a pod: its name, its runtime ID (without the {@code containerd://} scheme; empty
 * until it runs), its literal env values, and whether it is an init container.
 */
public record ContainerInfo(String name, String containerId, Map<String, String> env, boolean init) {

    public ContainerInfo {
        containerId = containerId == null ? "" : containerId;
        env = Map.copyOf(env);
    }
}

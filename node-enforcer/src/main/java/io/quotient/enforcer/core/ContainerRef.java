package io.quotient.enforcer.core;

/** Names one container of one pod, for decisions, events, logs and metrics. */
public record ContainerRef(String namespace, String pod, String podUid, String container, String containerId) {

    @Override
    public String toString() {
        return namespace + "/" + pod + "[" + container + "]";
    }
}

package io.quotient.core.model;

/**
 * What releasing an idle job's GPUs does to a job Quotient deploys (REST, GpuJob): {@code preempt} evicts it and puts
 * it back in the queue, {@code stop} evicts it for good (it ends Failed, saying why). A Kubeflow Notebook is always
 * stopped the Kubeflow way (its {@code kubeflow-resource-stopped} annotation): its user starts it again from the UI.
 */
public enum IdleAction {
    STOP("stop"),
    PREEMPT("preempt");

    private final String wireName;

    IdleAction(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the accepted actions */
    public static IdleAction fromWireName(String text) {
        for (IdleAction action : values()) {
            if (WireName.matches(action.wireName, text)) {
                return action;
            }
        }
        throw new IllegalArgumentException("must be stop or preempt, was '" + text + "'");
    }
}

package io.quotient.enforcer.core;

/** Why the enforcer kills a GPU process; the event reason is what the pod's Kubernetes Event says. */
public enum KillReason {
    /** The process's container uses more GPU memory than its limit. */
    LIMIT_EXCEEDED("GpuOomKilled"),
    /** The container holds memory above its request that owners on the GPU need back. */
    LOAN_RECLAIMED("GpuLoanReclaimed");

    private final String eventReason;

    KillReason(String eventReason) {
        this.eventReason = eventReason;
    }

    public String eventReason() {
        return eventReason;
    }
}

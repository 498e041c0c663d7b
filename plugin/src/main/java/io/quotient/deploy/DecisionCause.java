package io.quotient.deploy;

/** Why a plan is applied; names events and metrics. */
public enum DecisionCause {
    /** A new deploy request. */
    DEPLOY("reclaim"),
    /** The re-queue or reclaim of waiting jobs. */
    QUEUE("reclaim"),
    /** The periodic defragmentation. */
    DEFRAGMENT("defragment"),
    /** An elastic gang restarted with more replicas. */
    GROW("grow"),
    /** An idle job's GPUs released for a waiting job (its team's idle policy). */
    IDLE("idle");

    private final String preemptionLabel;

    DecisionCause(String preemptionLabel) {
        this.preemptionLabel = preemptionLabel;
    }

    /** The label of the preemption metric for evictions of this cause. */
    public String preemptionLabel() {
        return preemptionLabel;
    }
}

package io.quotient.core.model;

import java.util.Objects;

/**
 * One kind of replica of a foreign workload, as its author wrote it: a batch Job's pod template (one replica), a
 * PyTorchJob's {@code Master} or {@code Worker} spec, a TrainJob's nodes ({@code trainer.numNodes}).
 *
 * @param replicasField where the replica count was read (named when it is refused)
 * @param replicas      how many pods of this kind run at once
 * @param ask           what each of them says about GPUs
 */
public record ReplicaGroup(String replicasField, int replicas, PodGpuAsk ask) {

    public ReplicaGroup {
        Objects.requireNonNull(replicasField, "replicasField");
        Objects.requireNonNull(ask, "ask");
    }
}

package io.quotient.adapters.k8s;

import java.util.List;

/** A GpuJob's status, written by the leader (with the record on create, then by update). Fields may be null. */
public record GpuJobStatus(String phase, String node, List<Gpu> gpus, String quotaState, String reason,
                           String placedAt, List<Replica> replicas) {

    /** A gang's further replica: its node and the indices of its whole GPUs there. */
    public record Replica(String node, List<Integer> gpus) {
    }

    /** One GPU the job uses: its index on the node, its UUID for fractions, its share. */
    public record Gpu(Integer index, String uuid, Double fraction) {
    }
}

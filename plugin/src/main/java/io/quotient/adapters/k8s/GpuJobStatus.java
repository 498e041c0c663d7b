package io.quotient.adapters.k8s;

import java.util.List;

/** A GpuJob's status, written by the leader (with the record on create, then by update). Fields may be null. */
public record GpuJobStatus(String phase, String node, List<Gpu> gpus, String quotaState, String reason,
                           String placedAt) {

    /** One GPU the job uses: its index on the node, its UUID for fractions, its share. */
    public record Gpu(Integer index, String uuid, Double fraction) {
    }
}

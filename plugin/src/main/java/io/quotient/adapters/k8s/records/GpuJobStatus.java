package io.quotient.adapters.k8s.records;

import java.util.List;

/**
 * A GpuJob's status, written by the leader (with the record on create, then by update). Fields may be null.
 * {@code leaderTerm} names the leader term that wrote it last (each new leader rewrites every live record first, see
 * {@link io.quotient.deploy.port.JobRecordStore#claimForTerm}). {@code queuedAt} is where the job's place in the queue
 * counts from when it is not its creation (an idle release re-queued it, {@link io.quotient.deploy.port.JobRecord#queuedAt}):
 * in the status, every status write carries it, so it survives restarts and leader changes with the record.
 */
public record GpuJobStatus(
        String phase,
        String node,
        List<Gpu> gpus,
        String quotaState,
        String reason,
        String placedAt,
        List<Replica> replicas,
        String leaderTerm,
        List<Condition> conditions,
        String queuedAt) {

    /** A gang's further replica: its node and the indices of its whole GPUs there. */
    public record Replica(String node, List<Integer> gpus) {}

    /**
     * A Kubernetes condition; the service writes one, {@code Idle} ({@link io.quotient.deploy.port.IdleCondition}),
     * while the job's GPUs stay under its team's idle threshold.
     */
    public record Condition(String type, String status, String reason, String message, String lastTransitionTime) {}

    /** One GPU the job uses: its index on the node, its UUID for fractions, its share. */
    public record Gpu(Integer index, String uuid, Double fraction) {}
}

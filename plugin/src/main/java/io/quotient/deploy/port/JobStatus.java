package io.quotient.deploy.port;

import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The observed and decided state of a job, as written to its record (the custom resource's status).
 *
 * @param node       the node it is placed on; null unless the phase holds capacity (or it finished there)
 * @param gpus       the GPUs it uses on that node; empty for pending and CPU-only jobs
 * @param quotaState whether it runs inside its team's guarantee; null while not placed
 * @param reason     a human-readable why: why it is pending, why it was preempted, why it failed; may be null
 * @param placedAt   when the current placement was decided; null while not placed
 * @param otherReplicas a gang's further replicas, each on its own node ({@code node} and {@code gpus} are the
 *                   first's); empty for single-node jobs
 * @param idle       the job's {@code Idle} condition while its GPUs stay under its team's idle threshold; null when
 *                   it is not idle (or its team watches no idleness)
 */
public record JobStatus(
        JobPhase phase,
        String node,
        List<GpuBinding> gpus,
        QuotaState quotaState,
        String reason,
        Instant placedAt,
        List<PlacedJob.Replica> otherReplicas,
        IdleCondition idle) {

    public JobStatus(
            JobPhase phase,
            String node,
            List<GpuBinding> gpus,
            QuotaState quotaState,
            String reason,
            Instant placedAt,
            List<PlacedJob.Replica> otherReplicas) {
        this(phase, node, gpus, quotaState, reason, placedAt, otherReplicas, null);
    }

    public JobStatus(
            JobPhase phase,
            String node,
            List<GpuBinding> gpus,
            QuotaState quotaState,
            String reason,
            Instant placedAt) {
        this(phase, node, gpus, quotaState, reason, placedAt, List.of());
    }

    public JobStatus {
        Objects.requireNonNull(phase, "phase");
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        otherReplicas = otherReplicas == null ? List.of() : List.copyOf(otherReplicas);
    }

    /** What a record says before any decision: stored as no status at all (e.g. a GpuJob applied by hand). */
    public static final String UNDECIDED_REASON = "recorded; waiting for the scheduler to decide";

    /** The status of a record no decision has been written to yet. */
    public static JobStatus undecided() {
        return pending(UNDECIDED_REASON);
    }

    public static JobStatus pending(String reason) {
        return new JobStatus(JobPhase.PENDING, null, List.of(), null, reason, null);
    }

    public static JobStatus placed(String node, List<GpuBinding> gpus, QuotaState quotaState, Instant placedAt) {
        return new JobStatus(JobPhase.PLACED, node, gpus, quotaState, null, placedAt);
    }

    public JobStatus withPhase(JobPhase newPhase, String newReason) {
        return new JobStatus(newPhase, node, gpus, quotaState, newReason, placedAt, otherReplicas, idle);
    }

    public JobStatus withGpus(List<GpuBinding> newGpus) {
        return new JobStatus(phase, node, newGpus, quotaState, reason, placedAt, otherReplicas, idle);
    }

    public JobStatus withQuotaState(QuotaState newQuotaState) {
        return new JobStatus(phase, node, gpus, newQuotaState, reason, placedAt, otherReplicas, idle);
    }

    /** The same status with a gang's further replicas. */
    public JobStatus withOtherReplicas(List<PlacedJob.Replica> replicas) {
        return new JobStatus(phase, node, gpus, quotaState, reason, placedAt, replicas, idle);
    }

    /** The same status with another {@code Idle} condition (null: none). */
    public JobStatus withIdle(IdleCondition condition) {
        return new JobStatus(phase, node, gpus, quotaState, reason, placedAt, otherReplicas, condition);
    }
}

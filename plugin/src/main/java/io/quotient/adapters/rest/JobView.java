package io.quotient.adapters.rest;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.core.scheduling.WaitReasons;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A job as the API shows it: its status and where it runs, or why it waits.
 *
 * @param reasonCode for a pending job, the kind of wait a client can act on: {@code Unschedulable} when no node of
 *                   the cluster as it is could ever hold it (more GPUs than any node has, more memory than any GPU,
 *                   more replicas than nodes that fit one, a GPU model no node has: only new nodes help),
 *                   {@code Waiting} otherwise; null for a job that is not pending
 */
public record JobView(
        String team,
        String name,
        String namespace,
        String template,
        String phase,
        String node,
        List<GpuView> gpus,
        String quotaState,
        String reason,
        String reasonCode,
        Instant createdAt,
        Instant placedAt,
        List<ReplicaView> replicas,
        IdleView idle) {

    /**
     * The job's {@code Idle} condition: its GPUs stayed under its team's idle threshold since {@code since};
     * {@code reason} {@code IdleWarning} or {@code IdleReleased}, {@code message} the decision with its numbers.
     */
    public record IdleView(String reason, String message, Instant since) {}

    /** A gang's further replica ({@code node} and {@code gpus} are the first's); empty for single-node jobs. */
    public record ReplicaView(String node, List<Integer> gpus) {}

    /** One GPU the job uses. */
    public record GpuView(int index, String uuid, double fraction) {}

    public static JobView of(JobRecord record) {
        return of(record, Map.of());
    }

    /**
     * The job with its quota state as it is now ({@code current}, recomputed over the team's jobs) where known; the
     * state recorded at placement otherwise.
     */
    public static JobView of(JobRecord record, Map<JobId, QuotaState> current) {
        JobStatus s = record.status();
        QuotaState quotaState = current.getOrDefault(record.id(), s.quotaState());
        List<GpuView> gpus = s.gpus().stream().map(JobView::gpu).toList();
        return new JobView(
                record.id().team(),
                record.id().name(),
                record.submission().pod().namespace(),
                record.submission().template(),
                s.phase().wireName(),
                s.node(),
                gpus,
                quotaState == null ? null : quotaState.wireName(),
                s.reason(),
                s.phase() == JobPhase.PENDING ? WaitReasons.code(s.reason()) : null,
                record.createdAt(),
                s.placedAt(),
                s.otherReplicas().stream()
                        .map(r -> new ReplicaView(r.node(), r.gpuIndices()))
                        .toList(),
                s.idle() == null
                        ? null
                        : new IdleView(
                                s.idle().reason(), s.idle().message(), s.idle().since()));
    }

    private static GpuView gpu(GpuBinding g) {
        return new GpuView(g.index(), g.uuid(), g.fraction());
    }
}

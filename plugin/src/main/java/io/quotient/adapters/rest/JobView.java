package io.quotient.adapters.rest;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A job as the API shows it: its status and where it runs, or why it waits. */
public record JobView(String team, String name, String namespace, String template, String phase, String node,
                      List<GpuView> gpus, String quotaState, String reason, Instant createdAt, Instant placedAt,
                      List<ReplicaView> replicas) {

    /** A gang's further replica ({@code node} and {@code gpus} are the first's); empty for single-node jobs. */
    public record ReplicaView(String node, List<Integer> gpus) {
    }

    /** One GPU the job uses. */
    public record GpuView(int index, String uuid, double fraction) {
    }

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
        return new JobView(record.id().team(), record.id().name(), record.submission().pod().namespace(),
                record.submission().template(),
                s.phase().wireName(), s.node(), gpus, quotaState == null ? null : quotaState.wireName(),
                s.reason(), record.createdAt(), s.placedAt(),
                s.otherReplicas().stream().map(r -> new ReplicaView(r.node(), r.gpuIndices())).toList());
    }

    private static GpuView gpu(GpuBinding g) {
        return new GpuView(g.index(), g.uuid(), g.fraction());
    }
}

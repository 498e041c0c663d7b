package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import java.time.Instant;
import java.util.Objects;

/**
 * The durable record of one deployment (Kubernetes: a {@code GpuJob} custom resource). It is written before
 * anything else is created and outlives the job's pods: everything the service decides can be rebuilt from
 * these records and the cluster.
 *
 * @param submission what the user asked for (the resource's spec)
 * @param spec       the validated resource request the scheduler works with (derived from
 *                   {@code submission.request()}; stores need not persist it separately)
 * @param status     the decided and observed state
 * @param createdAt  when the record was created
 * @param version    opaque version for optimistic concurrency (Kubernetes: metadata.resourceVersion);
 *                   null before the record is stored
 * @param queuedAt   where the job's place in the queue counts from (it orders the queue among equal priorities): its
 *                   creation, or the instant an idle release re-queued it ({@code IdleVerdict.requeuedAt}: an idle
 *                   job gives up its place). Written with the status ({@link JobRecordStore#updateStatus}), so
 *                   every status write keeps it and a new leader reads it with the record
 */
public record JobRecord(
        JobSubmission submission, JobSpec spec, JobStatus status, Instant createdAt, String version, Instant queuedAt) {

    /** A record whose place in the queue counts from its creation. */
    public JobRecord(JobSubmission submission, JobSpec spec, JobStatus status, Instant createdAt, String version) {
        this(submission, spec, status, createdAt, version, createdAt);
    }

    public JobRecord {
        Objects.requireNonNull(submission, "submission");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(queuedAt, "queuedAt");
        if (!submission.id().equals(spec.id())) {
            throw new IllegalArgumentException(
                    "submission " + submission.id() + " and spec " + spec.id() + " name different jobs");
        }
    }

    public JobId id() {
        return spec.id();
    }

    public JobPhase phase() {
        return status.phase();
    }

    public JobRecord withStatus(JobStatus newStatus) {
        return new JobRecord(submission, spec, newStatus, createdAt, version, queuedAt);
    }

    public JobRecord withVersion(String newVersion) {
        return new JobRecord(submission, spec, status, createdAt, newVersion, queuedAt);
    }

    /** The same record, its place in the queue counting from {@code instant} (stored with its next status write). */
    public JobRecord withQueuedAt(Instant instant) {
        return new JobRecord(submission, spec, status, createdAt, version, instant);
    }
}

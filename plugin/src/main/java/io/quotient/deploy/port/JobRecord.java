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
 * @param createdAt  when the record was created; orders the queue among equal priorities
 * @param version    opaque version for optimistic concurrency (Kubernetes: metadata.resourceVersion);
 *                   null before the record is stored
 */
public record JobRecord(JobSubmission submission, JobSpec spec, JobStatus status, Instant createdAt, String version) {

    public JobRecord {
        Objects.requireNonNull(submission, "submission");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
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
        return new JobRecord(submission, spec, newStatus, createdAt, version);
    }

    public JobRecord withVersion(String newVersion) {
        return new JobRecord(submission, spec, status, createdAt, newVersion);
    }
}

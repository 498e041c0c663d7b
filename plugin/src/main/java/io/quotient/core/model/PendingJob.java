package io.quotient.core.model;

import java.time.Instant;
import java.util.Objects;

/** A job waiting for capacity; {@code queuedAt} keeps first-come order within equal priority. */
public record PendingJob(JobSpec spec, Instant queuedAt) {
    public PendingJob {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(queuedAt, "queuedAt");
    }
}

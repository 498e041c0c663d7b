package io.quotient.core.idle;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.util.Objects;

/**
 * A job's GPU utilisation over one report period: the mean over its GPUs and the measured part of
 * {@code from}..{@code to}, as a fraction of the GPUs (0..1).
 */
public record JobUtilisation(JobId job, Instant from, Instant to, double utilisation) {

    public JobUtilisation {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (!(utilisation >= 0) || Double.isInfinite(utilisation)) {
            throw new IllegalArgumentException("utilisation must be a finite number >= 0, was " + utilisation);
        }
    }
}

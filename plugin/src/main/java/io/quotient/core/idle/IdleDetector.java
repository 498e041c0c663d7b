package io.quotient.core.idle;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Remembers since when each watched job has been idle: a sample at or under the job's threshold starts (or continues)
 * an idle stretch at the sample's start; one above it ends the stretch. A job with no samples keeps what it had (a
 * report missed is not a change). Pure and single-threaded, like the rest of the core.
 */
public final class IdleDetector {

    /** Since when a job has been idle, and the last utilisation it showed. */
    public record Idleness(Instant since, double utilisation) {}

    private final Map<JobId, Idleness> idle = new HashMap<>();
    private final Map<JobId, Double> lastUtilisation = new HashMap<>();

    /** Takes one sample of a job whose team's threshold is {@code threshold} (a fraction, 0..1). */
    public void record(JobUtilisation sample, double threshold) {
        lastUtilisation.put(sample.job(), sample.utilisation());
        if (sample.utilisation() > threshold) {
            idle.remove(sample.job());
            return;
        }
        idle.merge(
                sample.job(),
                new Idleness(sample.from(), sample.utilisation()),
                (was, now) -> new Idleness(was.since(), now.utilisation()));
    }

    /** Since when the job has been idle; empty when it is busy or nothing was measured. */
    public Optional<Idleness> idleness(JobId job) {
        return Optional.ofNullable(idle.get(job));
    }

    /** The last utilisation measured for the job, if any. */
    public Optional<Double> lastUtilisation(JobId job) {
        return Optional.ofNullable(lastUtilisation.get(job));
    }

    /** Forgets a job's idle stretch (its GPUs were released: placed again, it starts from busy). */
    public void forget(JobId job) {
        idle.remove(job);
        lastUtilisation.remove(job);
    }

    /** Forgets every job but these (the jobs placed now): a job placed again starts from busy. */
    public void retainOnly(Set<JobId> jobs) {
        idle.keySet().retainAll(jobs);
        lastUtilisation.keySet().retainAll(jobs);
    }
}

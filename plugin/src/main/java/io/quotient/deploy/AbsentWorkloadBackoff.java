package io.quotient.deploy;

import io.quotient.core.model.JobId;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * When to try again to deploy an adopted workload (a TrainJob, a PyTorchJob) that was placed but shows no pods:
 * its operator may be absent, and re-sending the placement every pass only loads the API server (and the validating
 * webhook) with writes that change nothing. The first retry comes after {@link #FIRST}, each next one after twice
 * the previous wait, at most {@link #CAP}; a job whose workload shows pods, or that is no longer placed, starts
 * afresh. Held in memory: a restart or a new leader tries once at once, then backs off again.
 */
final class AbsentWorkloadBackoff {

    static final Duration FIRST = Duration.ofSeconds(5);
    static final Duration CAP = Duration.ofMinutes(5);

    /** A job's next try and the wait that led to it. */
    private record Wait(Instant next, Duration waited) {}

    private final Map<JobId, Wait> waits = new HashMap<>();

    /** Whether a deploy of the job is due now (its first, or its wait is over). */
    synchronized boolean due(JobId job, Instant now) {
        Wait wait = waits.get(job);
        return wait == null || !now.isBefore(wait.next());
    }

    /**
     * Records a try made now and returns whether it was the first of this absence (the one worth an INFO line; the
     * later ones are logged at DEBUG).
     */
    synchronized boolean tried(JobId job, Instant now) {
        Wait wait = waits.get(job);
        Duration next = wait == null ? FIRST : min(wait.waited().multipliedBy(2), CAP);
        waits.put(job, new Wait(now.plus(next), next));
        return wait == null;
    }

    /** Forgets the job: its workload shows pods, or it is no longer placed. */
    synchronized void clear(JobId job) {
        waits.remove(job);
    }

    /** Forgets every job not among {@code placed} (removed, evicted, finished). */
    synchronized void retainOnly(Set<JobId> placed) {
        waits.keySet().retainAll(placed);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

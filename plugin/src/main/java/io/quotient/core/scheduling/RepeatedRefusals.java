package io.quotient.core.scheduling;

import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Gang;
import io.quotient.core.model.JobSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * The refusals of one planning round, remembered per kind of job while nothing changes: a decision depends only on
 * the job's team, demand, priority, preemptibility and gang and on the workspace, so a job like one just refused on
 * an unchanged workspace is refused for the same reason. A queue of thousands of like jobs (most of a busy cluster's
 * queue is one-GPU jobs of a few teams) is then decided in one refusal per kind instead of one search per job.
 */
final class RepeatedRefusals {

    private record Kind(String team, ResourceDemand demand, int priority, boolean preemptible, Gang gang) {
        static Kind of(JobSpec job) {
            return new Kind(job.team(), Demands.of(job), job.priority(), job.preemptible(), job.gang());
        }
    }

    private final Map<Kind, String> reasons = new HashMap<>();
    private long changesSeen = -1;

    /** Why a job of this kind was refused on the workspace as it is ({@code changes}), or null if none was. */
    String reason(JobSpec job, long changes) {
        if (changes != changesSeen) {
            reasons.clear();
            changesSeen = changes;
        }
        // after every change nothing is remembered: no kind to build for the lookup
        return reasons.isEmpty() ? null : reasons.get(Kind.of(job));
    }

    /** A job of this kind was refused for {@code reason}, leaving the workspace as it was ({@code changes}). */
    void refused(JobSpec job, String reason, long changes) {
        if (changes != changesSeen) {
            reasons.clear();
            changesSeen = changes;
        }
        reasons.put(Kind.of(job), reason);
    }
}

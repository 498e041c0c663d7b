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
    /** The reason for the job last refused or found refused, kept for the like jobs that mostly follow it. */
    private final LastAlike<String> last = new LastAlike<>();

    /**
     * Whether the two jobs are decided alike on the same workspace: the same team, GPU request, CPU, memory, allowed
     * models, priority, preemptibility and gang, all a decision reads of a job (also its place in the orders across
     * teams, beside its arrival and name).
     */
    static boolean decidedAlike(JobSpec a, JobSpec b) {
        // a pass compares every queued job with the one before it: like jobs often share their request, gang and
        // models, and a comparison ending at the reference reads nothing more of either job
        return a.team().equals(b.team())
                && (a.gpu() == b.gpu() || a.gpu().equals(b.gpu()))
                && a.cpuMilli() == b.cpuMilli()
                && a.memoryMib() == b.memoryMib()
                && a.priority() == b.priority()
                && a.preemptible() == b.preemptible()
                && (a.gang() == b.gang() || a.gang().equals(b.gang()))
                && (a.allowedModels() == b.allowedModels() || a.allowedModels().equals(b.allowedModels()));
    }

    /** Why a job of this kind was refused on the workspace as it is ({@code changes}), or null if none was. */
    String reason(JobSpec job, long changes) {
        forgetUnless(changes);
        // after every change nothing is remembered: no kind to build for the lookup
        if (reasons.isEmpty()) {
            return null;
        }
        String alike = last.get(job, this, changes);
        if (alike != null) {
            return alike;
        }
        String known = reasons.get(Kind.of(job));
        if (known != null) {
            last.put(job, this, changes, known);
        }
        return known;
    }

    /** A job of this kind was refused for {@code reason}, leaving the workspace as it was ({@code changes}). */
    void refused(JobSpec job, String reason, long changes) {
        forgetUnless(changes);
        reasons.put(Kind.of(job), reason);
        last.put(job, this, changes, reason);
    }

    private void forgetUnless(long changes) {
        if (changes != changesSeen) {
            reasons.clear();
            changesSeen = changes;
        }
    }
}

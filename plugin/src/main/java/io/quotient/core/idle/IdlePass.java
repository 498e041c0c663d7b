package io.quotient.core.idle;

import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One idle pass of the core, kept between passes: which placed jobs the teams' idle policies watch, their utilisation
 * samples recorded against their team's threshold ({@link IdleDetector}), and the verdicts ({@link IdleDecider}). The
 * service's leader ({@code IdleReclaim}) and the replay both run it, so both decide alike from the same samples.
 * Pure and single-threaded, like the rest of the core.
 */
public final class IdlePass {

    private final IdleDecider decider;
    private IdleDetector detector = new IdleDetector();

    public IdlePass(IdleDecider decider) {
        this.decider = decider;
    }

    /** The idle threshold of each placed job its team's policy watches; empty when no team watches a placed job. */
    public static Map<JobId, Double> watched(SchedulingSnapshot snapshot) {
        Map<JobId, Double> thresholds = new HashMap<>();
        for (PlacedJob job : snapshot.placed()) {
            IdlePolicy policy = policy(snapshot, job.spec().team());
            if (policy.watches(job.spec().kind())) {
                thresholds.put(job.id(), policy.threshold());
            }
        }
        return thresholds;
    }

    /**
     * Records the samples of the watched jobs (others are ignored) and forgets every job no longer watched, so that
     * a job placed again starts from busy.
     *
     * @return the watched jobs with their thresholds
     */
    public Map<JobId, Double> record(SchedulingSnapshot snapshot, Collection<JobUtilisation> samples) {
        Map<JobId, Double> thresholds = watched(snapshot);
        for (JobUtilisation sample : samples) {
            Double threshold = thresholds.get(sample.job());
            if (threshold != null) {
                detector.record(sample, threshold);
            }
        }
        detector.retainOnly(thresholds.keySet());
        return thresholds;
    }

    /**
     * The verdicts on the watched jobs, from what was recorded; none when no job is watched. A job released is
     * forgotten: stopped, or re-queued and placed again (even in the same pass), it starts from busy, and is not
     * released again at the next pass for the stretch it was released for.
     *
     * @param requeued whether releasing the job puts it back in the queue (see {@link IdleDecider#decide})
     */
    public List<IdleVerdict> decide(SchedulingSnapshot snapshot, Predicate<JobId> requeued) {
        if (watched(snapshot).isEmpty()) {
            return List.of();
        }
        List<IdleVerdict> verdicts = decider.decide(snapshot, detector, requeued);
        verdicts.stream().filter(v -> v.state() == IdleState.RELEASE).forEach(v -> detector.forget(v.job()));
        return verdicts;
    }

    /**
     * Whether some watched job has been idle for its team's {@code after}: only such a job can be released, so a pass
     * where none is may skip {@link #decide} when it applies only releases (the replay; the service also writes the
     * warnings).
     */
    public boolean anyDue(SchedulingSnapshot snapshot) {
        Instant now = snapshot.now();
        for (PlacedJob job : snapshot.placed()) {
            IdlePolicy policy = policy(snapshot, job.spec().team());
            if (!policy.watches(job.spec().kind())) {
                continue;
            }
            Optional<IdleDetector.Idleness> idle = detector.idleness(job.id());
            if (idle.isPresent()
                    && !idle.get().since().isAfter(now)
                    && Duration.between(idle.get().since(), now).compareTo(policy.after()) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Forgets every idle stretch (a replica that stops leading; its next term starts again from the counters). */
    public void reset() {
        detector = new IdleDetector();
    }

    private static IdlePolicy policy(SchedulingSnapshot snapshot, String team) {
        Team t = snapshot.teams().get(team);
        return t == null ? IdlePolicy.OFF : t.idle();
    }
}

package io.quotient.core.idle;

import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** The idle decisions in plain sentences, with the numbers: idle since, utilisation, threshold, limits, who waits. */
final class IdleExplanations {

    private IdleExplanations() {}

    static IdleVerdict warning(
            PlacedJob job,
            IdlePolicy policy,
            IdleDetector.Idleness idle,
            Instant now,
            Optional<PendingJob> waiter,
            boolean due) {
        Instant releaseAt = idle.since().plus(policy.after());
        String base = idleFor(job, policy, idle, now);
        String explanation;
        if (due) {
            explanation = base + ", past its team's limit of " + minutes(policy.after())
                    + "; kept: no waiting job would be placed on the GPUs it holds";
        } else {
            explanation = base + "; its GPUs are released at " + at(releaseAt)
                    + (policy.onlyWhenOthersWait() ? " if a job waits for them" : "")
                    + waiter.map(w -> " (" + name(w.spec().id()) + " waits for them)")
                            .orElse("");
        }
        String note = waiter.isEmpty()
                ? ""
                : "would be placed when idle " + describe(job) + " is released (idle since " + at(idle.since()) + " at "
                        + IdleDecider.percent(idle.utilisation()) + "; released from " + at(releaseAt) + ")";
        return verdict(job, policy, IdleState.WARNED, idle, waiter, explanation, note);
    }

    static IdleVerdict release(
            PlacedJob job, IdlePolicy policy, IdleDetector.Idleness idle, Instant now, Optional<PendingJob> waiter) {
        String explanation = idleFor(job, policy, idle, now) + ", past its team's limit of "
                + minutes(policy.after()) + "; its GPUs are released"
                + waiter.map(w -> " for " + name(w.spec().id()) + ", which waits for them")
                        .orElse(" (its team's idle policy releases idle jobs whether or not others wait)");
        String note = waiter.isEmpty()
                ? ""
                : "would be placed when idle " + describe(job) + " is released (idle since " + at(idle.since()) + " at "
                        + IdleDecider.percent(idle.utilisation()) + "; being released now)";
        return verdict(job, policy, IdleState.RELEASE, idle, waiter, explanation, note);
    }

    /** "notebook nb-0 of team a (1 GPU)". */
    static String describe(PlacedJob job) {
        double gpus = job.gpuMilli() / 1000.0;
        String amount = gpus == Math.rint(gpus) ? String.valueOf((long) gpus) : String.valueOf(gpus);
        return IdleDecider.kindName(job.spec().kind()) + " " + job.id().name() + " of team "
                + job.id().team() + " (" + amount + (gpus == 1 ? " GPU)" : " GPUs)");
    }

    private static String idleFor(PlacedJob job, IdlePolicy policy, IdleDetector.Idleness idle, Instant now) {
        return describe(job) + " has used its GPUs at " + IdleDecider.percent(idle.utilisation())
                + " (threshold " + IdleDecider.percent(policy.threshold()) + ") since " + at(idle.since())
                + ": idle for " + minutes(Duration.between(idle.since(), now));
    }

    private static IdleVerdict verdict(
            PlacedJob job,
            IdlePolicy policy,
            IdleState state,
            IdleDetector.Idleness idle,
            Optional<PendingJob> waiter,
            String explanation,
            String note) {
        return new IdleVerdict(
                job.id(),
                job.spec().kind(),
                state,
                idle.since(),
                idle.utilisation(),
                waiter.map(w -> w.spec().id()),
                explanation,
                note,
                policy.action(),
                Optional.empty());
    }

    private static String name(JobId job) {
        return "job " + job.name() + " of team " + job.team();
    }

    private static String at(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** "21 min", or "45 s" under a minute. */
    static String minutes(Duration d) {
        long seconds = Math.max(0, d.toSeconds());
        return seconds < 60 ? seconds + " s" : seconds / 60 + " min";
    }
}

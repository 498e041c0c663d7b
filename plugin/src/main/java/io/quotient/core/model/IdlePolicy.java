package io.quotient.core.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A team's idle policy (teams file key {@code idle}): a job of one of {@code kinds} whose GPUs stayed under
 * {@code threshold} utilisation for {@code warnAfter} is warned; after {@code after} its GPUs are released, if a job
 * waits that the freed GPUs would place (or always, when {@code onlyWhenOthersWait} is false). {@link #OFF} (no kinds)
 * is the default: nothing is watched.
 *
 * @param threshold utilisation as a fraction 0..1 (the teams file writes per cent); a job at or below it is idle
 */
public record IdlePolicy(
        Set<JobKind> kinds,
        Duration after,
        Duration warnAfter,
        double threshold,
        boolean onlyWhenOthersWait,
        IdleAction action) {

    /** No job is watched. */
    public static final IdlePolicy OFF =
            new IdlePolicy(Set.of(), Duration.ofMinutes(30), Duration.ofMinutes(20), 0.05, true, IdleAction.PREEMPT);

    public IdlePolicy {
        kinds = Set.copyOf(kinds);
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(warnAfter, "warnAfter");
        Objects.requireNonNull(action, "action");
        if (after.isNegative() || after.isZero()) {
            throw new IllegalArgumentException("idle.after must be a positive duration, was " + after);
        }
        if (warnAfter.isNegative()) {
            throw new IllegalArgumentException("idle.warnAfter must not be negative, was " + warnAfter);
        }
        if (warnAfter.compareTo(after) > 0) {
            throw new IllegalArgumentException("idle.warnAfter (" + warnAfter + ") must not be longer than idle.after ("
                    + after + "): the warning comes before the release");
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException(
                    "idle.threshold must be between 0 % and 100 %, was " + threshold * 100 + " %");
        }
    }

    /** Whether jobs of this kind are watched. */
    public boolean watches(JobKind kind) {
        return kinds.contains(kind);
    }

    public boolean isOff() {
        return kinds.isEmpty();
    }
}

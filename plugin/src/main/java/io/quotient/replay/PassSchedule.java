package io.quotient.replay;

import java.time.Duration;
import java.time.LocalTime;

/**
 * When the periodic passes run, in simulated time: the re-queue and the reclaim (the same decision, on two
 * schedules, as {@code DecisionService} runs them) and the defragmentation, once a day at a time of day (the service's
 * default cron {@code 0 0 3 * * ?}; other crons are not modelled).
 *
 * @param defragmentAt   UTC time of day of the defragmentation; null: never
 * @param defragmentShare at most this share of the cluster's GPUs is moved per defragmentation
 */
public record PassSchedule(Duration requeue, Duration reclaim, LocalTime defragmentAt, double defragmentShare) {

    /** The service's defaults ({@code quotient.schedules.*}; a test keeps them equal). */
    public static final PassSchedule SERVICE =
            new PassSchedule(Duration.ofSeconds(5), Duration.ofSeconds(15), LocalTime.of(3, 0), 0.1);

    public PassSchedule {
        if (requeue.isZero() || requeue.isNegative() || reclaim.isZero() || reclaim.isNegative()) {
            throw new IllegalArgumentException("pass intervals must be positive");
        }
    }

    /** The same re-queue and reclaim, never defragmenting. */
    public PassSchedule withoutDefragmentation() {
        return new PassSchedule(requeue, reclaim, null, 0);
    }

    /** The first re-queue or reclaim tick at or after {@code ms}, ticks counted from {@code originMs}. */
    long nextTick(long originMs, long ms) {
        return Math.min(next(originMs, ms, requeue.toMillis()), next(originMs, ms, reclaim.toMillis()));
    }

    /** The first defragmentation strictly after {@code ms}; {@link Long#MAX_VALUE} when it never runs. */
    long nextDefragment(long ms) {
        if (defragmentAt == null) {
            return Long.MAX_VALUE;
        }
        long day = 86_400_000L;
        long at = Math.floorDiv(ms, day) * day + defragmentAt.toSecondOfDay() * 1000L;
        return at > ms ? at : at + day;
    }

    private static long next(long originMs, long ms, long interval) {
        long k = Math.floorDiv(ms - originMs + interval - 1, interval);
        return originMs + k * interval;
    }
}

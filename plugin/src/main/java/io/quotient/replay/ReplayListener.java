package io.quotient.replay;

import io.quotient.core.model.PlacedJob;

/**
 * Follows a replay as it goes: the metrics and the tests' invariants are listeners. Between two calls the state is
 * constant, so {@link #interval} sees every stretch of simulated time once.
 */
public interface ReplayListener {

    /** Simulated time passes from {@code fromMs} to {@code toMs} with the state as {@code state} shows it. */
    default void interval(long fromMs, long toMs, ReplayState state) {}

    default void arrived(JobRun run, long nowMs) {}

    /** Started from the queue, or ({@code afterMove}) restarted right where a move sent it. */
    default void started(JobRun run, long nowMs, boolean afterMove) {}

    /**
     * Stopped where it ran ({@code from}) by a preemption or a move ({@code moved}), losing {@code lostMilliMs}; it
     * waits again unless moved.
     */
    default void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lostMilliMs) {}

    default void finished(JobRun run, PlacedJob from, long nowMs) {}

    /** Stopped for good where it ran ({@code from}) by its team's idle policy ({@code stop}): it will not run again. */
    default void stoppedIdle(JobRun run, PlacedJob from, long nowMs) {}

    /** The run is over at {@code endMs}: nothing more can happen. */
    default void ended(long endMs, ReplayState state) {}
}

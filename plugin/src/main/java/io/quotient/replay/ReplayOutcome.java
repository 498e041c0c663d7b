package io.quotient.replay;

import java.util.List;

/**
 * How a replay ended: every job's run (finished or, when nothing more could place it, still waiting), the scheduler
 * calls made (one per arrival and per pass that had work) and the wall-clock time the replay took.
 */
public record ReplayOutcome(String policy, List<JobRun> runs, long decisions, long wallNanos, long endMs) {

    public ReplayOutcome {
        runs = List.copyOf(runs);
    }

    public double decisionsPerSecond() {
        return wallNanos <= 0 ? 0 : decisions / (wallNanos / 1e9);
    }
}

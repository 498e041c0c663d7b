package io.quotient.replay;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import java.time.Duration;
import java.util.Set;

/** Replay jobs for tests: jobs of whole GPUs at priority 0, no CPU or memory, any model; training jobs preemptible. */
public final class TrainingJobs {

    private TrainingJobs() {}

    /**
     * @param checkpointMs how often the job checkpoints (a preempted one loses what ran since); 0: never, it restarts
     *                     from the start
     */
    public static ReplayJob wholeGpus(
            String name, String team, long submitMs, long durationMs, int gpus, long checkpointMs) {
        return of(name, team, submitMs, durationMs, gpus, checkpointMs, JobKind.TRAIN, true);
    }

    /** A notebook of whole GPUs, not preemptible (as the service's notebook template), checkpointing as the default. */
    public static ReplayJob notebook(String name, String team, long submitMs, long durationMs, int gpus) {
        return of(name, team, submitMs, durationMs, gpus, ReplayJob.DEFAULT_CHECKPOINT_MS, JobKind.NOTEBOOK, false);
    }

    private static ReplayJob of(
            String name,
            String team,
            long submitMs,
            long durationMs,
            int gpus,
            long checkpointMs,
            JobKind kind,
            boolean preemptible) {
        return new ReplayJob(
                name,
                team,
                submitMs,
                durationMs,
                new GpuRequest.WholeGpus(gpus),
                0,
                0,
                Set.of(),
                1,
                kind,
                0,
                preemptible,
                checkpointMs,
                Duration.ZERO,
                IdleProfile.BUSY);
    }
}

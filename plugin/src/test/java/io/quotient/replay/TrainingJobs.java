package io.quotient.replay;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import java.time.Duration;
import java.util.Set;

/** Replay jobs for tests: preemptible training jobs of whole GPUs at priority 0, no CPU or memory, any model. */
public final class TrainingJobs {

    private TrainingJobs() {}

    /**
     * @param checkpointMs how often the job checkpoints (a preempted one loses what ran since); 0: never, it restarts
     *                     from the start
     */
    public static ReplayJob wholeGpus(
            String name, String team, long submitMs, long durationMs, int gpus, long checkpointMs) {
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
                JobKind.TRAIN,
                0,
                true,
                checkpointMs,
                Duration.ZERO,
                IdleProfile.BUSY);
    }
}

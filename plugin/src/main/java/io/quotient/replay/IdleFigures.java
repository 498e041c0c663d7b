package io.quotient.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * The idle measures of a replay, for the cluster or one team (definitions in docs/replay.md, "Idle GPUs").
 *
 * @param profiled                 whether any of the jobs has an idle profile (else the others are 0 and not shown)
 * @param idleGpuHours             GPU-time allocated while the job's profile was at or under its team's threshold
 * @param returnedGpuHours         GPU-time the idle policy gave back: at each release, the rest of the idle stretch
 *                                 the job was in, within its remaining running time
 * @param stoppedGpuHours          work left undone by idle stops (not delivered)
 * @param stops                    jobs stopped for good by the idle policy ({@code action: stop})
 * @param preemptions              idle releases that re-queued the job ({@code action: preempt}); also counted in
 *                                 the preemptions
 * @param waiters                  jobs an idle release freed GPUs for
 * @param waiterQueueDelaySeconds  their queueing delay
 */
public record IdleFigures(
        boolean profiled,
        double idleGpuHours,
        double returnedGpuHours,
        double stoppedGpuHours,
        long stops,
        long preemptions,
        int waiters,
        Quantiles waiterQueueDelaySeconds) {

    private static final double GPU_HOUR = 1000.0 * 3_600_000;

    static IdleFigures of(List<JobRun> runs) {
        boolean profiled = false;
        double idle = 0;
        double returned = 0;
        double stopped = 0;
        long stops = 0;
        long preemptions = 0;
        List<Long> waiterDelays = new ArrayList<>();
        for (JobRun r : runs) {
            IdleTally t = r.idle();
            profiled |= r.job().profile().given();
            idle += t.allocatedIdleMilliMs();
            returned += t.returnedMilliMs();
            stopped += t.stoppedMilliMs();
            stops += t.stops();
            preemptions += t.preemptions();
            if (t.waitedForIdle() && r.firstStartMs() >= 0) {
                waiterDelays.add(r.firstStartMs() - r.job().submitMs());
            }
        }
        return new IdleFigures(
                profiled,
                idle / GPU_HOUR,
                returned / GPU_HOUR,
                stopped / GPU_HOUR,
                stops,
                preemptions,
                waiterDelays.size(),
                Quantiles.ofMillis(waiterDelays));
    }

    /** Whether there is anything to show: a profile in the trace, or a release. */
    public boolean shown() {
        return profiled || stops > 0 || preemptions > 0;
    }
}

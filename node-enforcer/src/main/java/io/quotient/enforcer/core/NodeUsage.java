package io.quotient.enforcer.core;

import java.time.Instant;
import java.util.List;

/**
 * What the node's pods used of its GPUs, as published in the node report: means over the report
 * window [{@code windowStart}, {@code windowEnd}] (built from {@code samples} enforcement cycles)
 * and running totals since each pod was first seen by this enforcer process. The totals are what
 * accounting adds up: a reader takes the difference between two reports, so a report it missed costs
 * nothing, and a changed {@code countingSince} tells it the totals restarted from zero.
 */
public record NodeUsage(Instant windowStart, Instant windowEnd, int samples, List<PodUsage> pods) {

    public NodeUsage {
        pods = List.copyOf(pods);
    }

    public static NodeUsage none(Instant at) {
        return new NodeUsage(at, at, 0, List.of());
    }

    /** One pod and what it used of each GPU it is on. */
    public record PodUsage(PodRef pod, List<GpuUsage> gpus) {

        public PodUsage {
            gpus = List.copyOf(gpus);
        }
    }

    /** One pod on one GPU (or MIG instance): this window, and the totals. */
    public record GpuUsage(String gpuUuid, UtilizationSource source, Window window, Totals totals) {}

    /**
     * The report window as this pod saw it: {@code seconds} it was on the GPU during the window (less
     * than the window when it arrived or left in it), the mean utilization over the measured part
     * (-1 when none was measured), the mean and peak memory its processes held.
     */
    public record Window(double seconds, double utilizationPercent, long memoryMeanBytes, long memoryPeakBytes) {}

    /**
     * Running totals since {@code countingSince}: seconds on the GPU, seconds with a utilization figure,
     * GPU-seconds of compute used (utilization / 100 x seconds) and byte-seconds of memory held.
     */
    public record Totals(
            Instant countingSince,
            double presentSeconds,
            double measuredSeconds,
            double busyGpuSeconds,
            double memoryByteSeconds) {}
}

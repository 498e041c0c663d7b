package io.quotient.core.usage;

import java.time.Instant;
import java.util.Objects;

/**
 * A node enforcer's running totals for one pod on one GPU, as its report gives them: counted from
 * {@code countingSince} (when that enforcer process first saw the pod there), never decreasing until
 * the enforcer restarts, when they start again from zero with a later {@code countingSince}.
 */
public record PodCounters(
        Instant countingSince,
        double presentSeconds,
        double measuredSeconds,
        double busyGpuSeconds,
        double memoryMibSeconds) {

    public PodCounters {
        Objects.requireNonNull(countingSince, "countingSince");
    }

    /** Whether these totals continue {@code earlier}: the same counting, none of them gone down. */
    public boolean continues(PodCounters earlier) {
        return countingSince.equals(earlier.countingSince)
                && presentSeconds >= earlier.presentSeconds
                && measuredSeconds >= earlier.measuredSeconds
                && busyGpuSeconds >= earlier.busyGpuSeconds
                && memoryMibSeconds >= earlier.memoryMibSeconds;
    }

    public PodCounters minus(PodCounters earlier) {
        return new PodCounters(
                countingSince,
                presentSeconds - earlier.presentSeconds,
                measuredSeconds - earlier.measuredSeconds,
                busyGpuSeconds - earlier.busyGpuSeconds,
                memoryMibSeconds - earlier.memoryMibSeconds);
    }

    /** These totals as usage (no allocation: the service counts that itself). */
    UsageCounters asUsage() {
        return new UsageCounters(0, 0, 0, 0, busyGpuSeconds, presentSeconds, measuredSeconds, memoryMibSeconds);
    }
}

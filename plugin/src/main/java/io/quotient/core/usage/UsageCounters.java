package io.quotient.core.usage;

import java.util.OptionalDouble;

/**
 * Cumulative GPU usage of one job (or of a group of jobs, or over a period: counters add and subtract).
 * What was allocated is counted by the service from its placements; what was used comes from the node
 * enforcers' per-pod counters. Units are seconds: GPU-seconds, or MiB-seconds for memory.
 *
 * @param allocatedInQuotaGpuSeconds GPUs held (fractions count) x seconds, inside the team's guarantee
 * @param allocatedBorrowedGpuSeconds the same on borrowed capacity (over quota)
 * @param allocatedDeviceSeconds      GPUs touched (a fraction's GPU counts one) x seconds: the pod-GPU time that
 *                                    utilization figures should cover
 * @param reservedMemoryMibSeconds    GPU memory the allocation reserves (share x the GPU's memory; a MiB request its MiB) x seconds
 * @param busyGpuSeconds              compute the job's pods used: utilization / 100 x seconds, summed over GPUs
 * @param presentSeconds              seconds the enforcers saw the job's pods on a GPU, summed over GPUs
 * @param measuredSeconds             the part of {@code presentSeconds} with a utilization figure (not MIG)
 * @param usedMemoryMibSeconds        GPU memory the job's processes held x seconds
 */
public record UsageCounters(
        double allocatedInQuotaGpuSeconds,
        double allocatedBorrowedGpuSeconds,
        double allocatedDeviceSeconds,
        double reservedMemoryMibSeconds,
        double busyGpuSeconds,
        double presentSeconds,
        double measuredSeconds,
        double usedMemoryMibSeconds) {

    public static final UsageCounters ZERO = new UsageCounters(0, 0, 0, 0, 0, 0, 0, 0);

    public UsageCounters plus(UsageCounters o) {
        return new UsageCounters(
                allocatedInQuotaGpuSeconds + o.allocatedInQuotaGpuSeconds,
                allocatedBorrowedGpuSeconds + o.allocatedBorrowedGpuSeconds,
                allocatedDeviceSeconds + o.allocatedDeviceSeconds,
                reservedMemoryMibSeconds + o.reservedMemoryMibSeconds,
                busyGpuSeconds + o.busyGpuSeconds,
                presentSeconds + o.presentSeconds,
                measuredSeconds + o.measuredSeconds,
                usedMemoryMibSeconds + o.usedMemoryMibSeconds);
    }

    public double allocatedGpuSeconds() {
        return allocatedInQuotaGpuSeconds + allocatedBorrowedGpuSeconds;
    }

    /**
     * The allocation that utilization figures cover: allocation x measured seconds / allocated device-seconds. Less
     * than all of it for MIG instances, for pods no enforcer reported (a node without one, an enforcer that died),
     * and for the time before a pod's first report.
     */
    public double measuredGpuSeconds() {
        return allocatedDeviceSeconds > 0
                ? allocatedGpuSeconds() * Math.min(1, measuredSeconds / allocatedDeviceSeconds)
                : 0;
    }

    /**
     * Allocation x measured utilization, over the measured allocation: the compute used, capped at what was
     * allocated (a small fraction that ran kernels on an otherwise idle time-sliced GPU used no more than it held).
     */
    public double usedGpuSeconds() {
        return Math.min(measuredGpuSeconds(), busyGpuSeconds);
    }

    /** The measured allocation the job did not use. */
    public double idleGpuSeconds() {
        return measuredGpuSeconds() - usedGpuSeconds();
    }

    /** The allocation no utilization figure covers (MIG instances, pods no enforcer reported). */
    public double unmeasuredGpuSeconds() {
        return allocatedGpuSeconds() - measuredGpuSeconds();
    }

    /** Used over measured allocation; empty when nothing was measured. */
    public OptionalDouble utilization() {
        double measured = measuredGpuSeconds();
        return measured > 0 ? OptionalDouble.of(usedGpuSeconds() / measured) : OptionalDouble.empty();
    }
}

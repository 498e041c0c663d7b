package io.quotient.enforcer.core;

import java.time.Instant;
import java.util.List;

/**
 * The node's GPU report, published as the node annotation {@code quotient.io/gpu-report}: the deployer
 * places fractions only on nodes whose report is ready and recent; accounting reads {@code usage}.
 */
public record NodeReport(
        boolean ready, String reason, Instant updatedAt, String driverVersion, List<Gpu> gpus, NodeUsage usage) {

    public static final String ANNOTATION = "quotient.io/gpu-report";
    private static final long MIB = 1L << 20;

    public record Gpu(
            int index, String uuid, String model, long memoryTotalMib, long memoryUsedMib, long memoryFreeMib) {}

    public NodeReport {
        gpus = List.copyOf(gpus);
    }

    /** A report without usage (no pod measured yet). */
    public NodeReport(boolean ready, String reason, Instant updatedAt, String driverVersion, List<Gpu> gpus) {
        this(ready, reason, updatedAt, driverVersion, gpus, NodeUsage.none(updatedAt));
    }

    /** The report for a cycle: physical GPUs only (MIG instances are the enforcer's business). */
    public static NodeReport of(CycleReport cycle, EnforcerHealth.State health, Instant now) {
        return of(cycle, health, now, NodeUsage.none(now));
    }

    /** The report for a cycle with the pods' usage up to now. */
    public static NodeReport of(CycleReport cycle, EnforcerHealth.State health, Instant now, NodeUsage usage) {
        if (cycle.sample().isEmpty()) {
            return new NodeReport(false, cycle.unavailableReason(), now, "", List.of(), usage);
        }
        GpuSample sample = cycle.sample().get();
        List<Gpu> gpus = sample.devices().stream()
                .filter(d -> !d.isMigInstance())
                .map(d -> new Gpu(
                        d.index(), d.uuid(), d.model(), d.totalBytes() / MIB, d.usedBytes() / MIB, d.freeBytes() / MIB))
                .toList();
        return new NodeReport(health.ready(), health.reason(), now, sample.driverVersion(), gpus, usage);
    }

    /** Same facts that decide placement (readiness, driver, GPUs and their size), ignoring usage and time. */
    public boolean sameShape(NodeReport other) {
        return other != null
                && ready == other.ready
                && reason.equals(other.reason)
                && driverVersion.equals(other.driverVersion)
                && gpus.stream()
                        .map(g -> g.uuid() + g.model() + g.memoryTotalMib())
                        .toList()
                        .equals(other.gpus.stream()
                                .map(g -> g.uuid() + g.model() + g.memoryTotalMib())
                                .toList());
    }

    /**
     * Same as {@link #sameShape} and the same memory use. The pods' usage is left out on purpose: its
     * totals grow every cycle, and it rides on the reports that go out anyway (at least every maxAge).
     */
    public boolean sameContent(NodeReport other) {
        return sameShape(other) && gpus.equals(other.gpus);
    }
}

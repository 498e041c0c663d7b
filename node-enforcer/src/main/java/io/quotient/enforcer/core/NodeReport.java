package io.quotient.enforcer.core;

import java.time.Instant;
import java.util.List;

/**
 * The node's GPU report, published as the node annotation {@code quotient.io/gpu-report}: the deployer
 * places fractions only on nodes whose report is ready and recent.
 */
public record NodeReport(boolean ready, String reason, Instant updatedAt, String driverVersion, List<Gpu> gpus) {

  public static final String ANNOTATION = "quotient.io/gpu-report";
  private static final long MIB = 1L << 20;

  public record Gpu(int index, String uuid, String model, long memoryTotalMib, long memoryUsedMib,
                    long memoryFreeMib) {
  }

  public NodeReport {
    gpus = List.copyOf(gpus);
  }

  /** The report for a cycle: physical GPUs only (MIG instances are the enforcer's business). */
  public static NodeReport of(CycleReport cycle, EnforcerHealth.State health, Instant now) {
    if (cycle.sample().isEmpty()) {
      return new NodeReport(false, cycle.unavailableReason(), now, "", List.of());
    }
    GpuSample sample = cycle.sample().get();
    List<Gpu> gpus = sample.devices().stream()
        .filter(d -> !d.isMigInstance())
        .map(d -> new Gpu(d.index(), d.uuid(), d.model(), d.totalBytes() / MIB, d.usedBytes() / MIB, d.freeBytes() / MIB))
        .toList();
    return new NodeReport(health.ready(), health.reason(), now, sample.driverVersion(), gpus);
  }

  /** Same facts that decide placement (readiness, driver, GPUs and their size), ignoring usage and time. */
  public boolean sameShape(NodeReport other) {
    return other != null && ready == other.ready && reason.equals(other.reason)
        && driverVersion.equals(other.driverVersion)
        && gpus.stream().map(g -> g.uuid() + g.model() + g.memoryTotalMib()).toList()
            .equals(other.gpus.stream().map(g -> g.uuid() + g.model() + g.memoryTotalMib()).toList());
  }

  /** Same as {@link #sameShape} and the same usage. */
  public boolean sameContent(NodeReport other) {
    return sameShape(other) && gpus.equals(other.gpus);
  }
}

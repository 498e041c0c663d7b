package io.quotient.enforcer.core;

import java.util.List;
import java.util.Optional;

/**
 * What one cycle saw and did. {@code sample} is empty and {@code unavailableReason} set when the GPUs
 * could not be read; {@code usage} is what each pod used of each GPU this cycle.
 */
public record CycleReport(
        Optional<GpuSample> sample, EnforcementPlan plan, String unavailableReason, List<PodGpuReading> usage) {

    public CycleReport {
        usage = List.copyOf(usage);
    }

    public CycleReport(Optional<GpuSample> sample, EnforcementPlan plan, String unavailableReason) {
        this(sample, plan, unavailableReason, List.of());
    }

    public static CycleReport unavailable(String reason) {
        return new CycleReport(Optional.empty(), new EnforcementPlan(List.of(), List.of(), List.of()), reason);
    }

    public boolean gpusAvailable() {
        return sample.isPresent();
    }
}

package io.quotient.enforcer.core;

import java.util.List;
import java.util.Optional;

/**
 * One read of the node's GPUs: devices (whole GPUs and MIG instances), their processes, and the
 * per-process utilization of the GPUs whose driver reports it.
 */
public record GpuSample(
        String driverVersion,
        List<GpuDevice> devices,
        List<GpuProcess> processes,
        List<ProcessUtilization> processUtilization) {

    public GpuSample {
        devices = List.copyOf(devices);
        processes = List.copyOf(processes);
        processUtilization = List.copyOf(processUtilization);
    }

    /** A read without per-process utilization (no GPU reports it). */
    public GpuSample(String driverVersion, List<GpuDevice> devices, List<GpuProcess> processes) {
        this(driverVersion, devices, processes, List.of());
    }

    public Optional<ProcessUtilization> processUtilization(String gpuUuid) {
        return processUtilization.stream()
                .filter(u -> u.gpuUuid().equals(gpuUuid))
                .findFirst();
    }
}

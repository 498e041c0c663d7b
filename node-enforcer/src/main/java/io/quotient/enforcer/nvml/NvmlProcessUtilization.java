package io.quotient.enforcer.nvml;

/**
 * One per-process utilization sample: the share of the sample period (percent) during which the
 * process ran kernels on the SMs ({@code smPercent}) and read or wrote device memory.
 * {@code timestampMicros} is the CPU time the driver took the sample at.
 */
public record NvmlProcessUtilization(int pid, long timestampMicros, int smPercent, int memoryPercent) {}

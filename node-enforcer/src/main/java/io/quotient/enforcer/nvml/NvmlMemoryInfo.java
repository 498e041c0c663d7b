package io.quotient.enforcer.nvml;

/** Device memory in bytes; {@code reserved} is 0 when only the pre-11.6 call is available. */
public record NvmlMemoryInfo(long total, long reserved, long free, long used) {}

package io.quotient.enforcer.core;

/** A process using memory on one GPU (or MIG instance), as the driver reports it (host PID). */
public record GpuProcess(int pid, String gpuUuid, long usedBytes) {}

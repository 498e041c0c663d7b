package io.quotient.enforcer.core;

/** Port: reads the node's GPUs and their processes (NVML in production, a fake library in tests). */
public interface GpuReader {

    /** @throws GpuUnavailableException when the GPUs cannot be read (driver gone, GPU lost, ...) */
    GpuSample read();
}

package io.quotient.enforcer.core;

/**
 * What one cycle measured of one pod on one GPU (or MIG instance): the percent of the GPU's time its
 * kernels ran ({@code utilizationPercent}, -1 when {@code source} is UNAVAILABLE) and the GPU memory
 * its processes hold (bytes the driver could tell; 0 for a pod bound to the GPU without a process).
 */
public record PodGpuReading(
        PodRef pod, String gpuUuid, UtilizationSource source, double utilizationPercent, long memoryUsedBytes) {

    public boolean measured() {
        return utilizationPercent >= 0;
    }
}

package io.quotient.enforcer.core;

/** A managed container's memory on one GPU as observed, with its budget there (bytes). */
public record ContainerUsage(
        ContainerRef container, String gpuUuid, long usedBytes, long requestBytes, long limitBytes) {

    /** Memory held above the request: borrowed from the GPU's idle or other owners' guaranteed memory. */
    public long loanedBytes() {
        return Math.max(0, usedBytes - requestBytes);
    }
}

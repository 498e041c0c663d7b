package io.quotient.deploy.port;

import java.util.Objects;

/** One GPU of one node, by index (the unit a reservation holds). */
public record GpuSlot(String node, int gpuIndex) {

    public GpuSlot {
        Objects.requireNonNull(node, "node");
        if (gpuIndex < 0) {
            throw new IllegalArgumentException("GPU index must not be negative, was " + gpuIndex);
        }
    }

    @Override
    public String toString() {
        return node + "/gpu" + gpuIndex;
    }
}

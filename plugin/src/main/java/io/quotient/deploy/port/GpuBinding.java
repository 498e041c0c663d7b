package io.quotient.deploy.port;

/**
 * One GPU a placed job uses.
 *
 * @param index    the GPU's index on the node
 * @param uuid     the GPU's UUID ({@code GPU-...}) for fractional jobs, as reported on the GPU's reservation;
 *                 null while not known yet, and for whole GPUs (the kubelet's device plugin picks those)
 * @param fraction the guaranteed share of this GPU, 0 &lt; fraction &lt;= 1 (1 for a whole GPU)
 */
public record GpuBinding(int index, String uuid, double fraction) {

    public GpuBinding {
        if (index < 0) {
            throw new IllegalArgumentException("GPU index must not be negative, was " + index);
        }
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("GPU fraction must be in (0, 1], was " + fraction);
        }
    }

    /** The share in milli-GPU, as the core counts it. */
    public int milli() {
        return (int) Math.round(fraction * 1000);
    }

    public boolean fractional() {
        return milli() < 1000;
    }

    public GpuBinding withUuid(String gpuUuid) {
        return new GpuBinding(index, gpuUuid, fraction);
    }
}

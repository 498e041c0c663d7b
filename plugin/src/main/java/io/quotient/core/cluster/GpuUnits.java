package io.quotient.core.cluster;

/**
 * The exact unit {@link ClusterState} counts a GPU's free capacity in, so that fractions and MiB requests add up
 * without rounding: thousandths of a MiB. A GPU of {@code M} MiB holds {@code 1000 × M} units; a share of
 * {@code f} milli takes {@code f × M} of them, a request of {@code r} MiB {@code r × 1000}. Three 8192 MiB requests
 * then fill a 24576 MiB GPU exactly, where three shares rounded up to 334 milli each would not fit.
 *
 * <p>A GPU of unknown memory (0) counts one unit per milli: fractions and whole GPUs behave as before, and a MiB
 * request cannot be honoured there (it takes more than the GPU holds).
 */
public final class GpuUnits {

    /** Taken by a MiB request on a GPU of unknown memory: more than any GPU holds, yet summable without overflow. */
    static final long NEVER = 1L << 50;

    private GpuUnits() {}

    /** Units per milli-GPU on the node: its GPU memory in MiB, or 1 when unknown. */
    public static long perMilli(NodeSpec node) {
        return node.gpuMemoryMib() > 0 ? node.gpuMemoryMib() : 1;
    }

    /** Units one GPU of the node holds. */
    public static long capacity(NodeSpec node) {
        return ResourceDemand.WHOLE * perMilli(node);
    }

    /**
     * Units a share takes from one GPU of the node: {@code mib × 1000} when it is given in MiB ({@code mib > 0}),
     * else {@code milli × perMilli}. The one rule for what a demand or an allocation takes from a GPU.
     */
    public static long taken(NodeSpec node, int milli, long mib) {
        if (mib <= 0) {
            return milli * perMilli(node);
        }
        return node.gpuMemoryMib() > 0 ? mib * ResourceDemand.WHOLE : NEVER;
    }

    /** Free milli-GPU of a GPU with {@code units} free, rounded down (exact when only fractions are held). */
    public static int milli(NodeSpec node, long units) {
        return (int) (units / perMilli(node));
    }
}

package io.quotient.sim;

import java.util.Locale;

/**
 * A family of traces derived from one openb pod list, as the FGD paper's published variants were made: each
 * share is either a target (0..1) or {@code null}, meaning "as in the base trace".
 *
 * @param gpuSpecShare    share of GPU pods constrained to GPU models (drawn by the cluster's model mix)
 * @param fractionalShare share of the GPU demand (Σ GPUs × share) coming from pods on a fraction of one GPU
 * @param multiGpuShare   share of the GPU demand coming from pods on several GPUs
 * @param cpuOnlyShare    share of all pods that ask for no GPU (below 1)
 * @param modelMix        where the models of a constrained pod are drawn from
 */
public record TraceFamily(
        Double gpuSpecShare, Double fractionalShare, Double multiGpuShare, Double cpuOnlyShare, ModelMix modelMix) {

    /** Where a constrained pod's GPU models come from. */
    public enum ModelMix {
        /** Drawn by the cluster's mix: each model with a weight of its GPUs in the cluster. */
        CLUSTER,
        /** Drawn from the constraints the base trace itself carries (gpuspec05's lean on T4, P100 and V100). */
        TRACE
    }

    /** The base trace itself: every share as it is. */
    public static final TraceFamily BASE = new TraceFamily(null, null, null, null);

    /** A family whose constrained pods draw their models by the cluster's mix. */
    public TraceFamily(Double gpuSpecShare, Double fractionalShare, Double multiGpuShare, Double cpuOnlyShare) {
        this(gpuSpecShare, fractionalShare, multiGpuShare, cpuOnlyShare, ModelMix.CLUSTER);
    }

    public TraceFamily {
        modelMix = modelMix == null ? ModelMix.CLUSTER : modelMix;
        check("gpu_spec share", gpuSpecShare, 1);
        check("fractional share", fractionalShare, 1);
        check("multi-GPU share", multiGpuShare, 1);
        check("CPU-only share", cpuOnlyShare, 0.99);
        if (fractionalShare != null && multiGpuShare != null && fractionalShare + multiGpuShare > 1 + 1e-9) {
            throw new IllegalArgumentException("fractional share " + percent(fractionalShare) + " and multi-GPU share "
                    + percent(multiGpuShare) + " add up to more than 100 % of the GPU demand; lower one of them");
        }
    }

    /**
     * A short name such as {@code spec20-share40-multi10-cpu13} ({@code tspec} when models come from the trace);
     * shares kept from the base are left out.
     */
    public String name() {
        StringBuilder sb = new StringBuilder();
        part(sb, modelMix == ModelMix.TRACE ? "tspec" : "spec", gpuSpecShare);
        part(sb, "share", fractionalShare);
        part(sb, "multi", multiGpuShare);
        part(sb, "cpu", cpuOnlyShare);
        return sb.isEmpty() ? "base" : sb.toString();
    }

    private static void part(StringBuilder sb, String label, Double share) {
        if (share != null) {
            sb.append(sb.isEmpty() ? "" : "-").append(label).append(Math.round(share * 100));
        }
    }

    private static void check(String what, Double share, double max) {
        if (share != null && !(share >= 0 && share <= max)) {
            throw new IllegalArgumentException(what + " must be between 0 and " + percent(max) + ", was " + share);
        }
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * share);
    }
}

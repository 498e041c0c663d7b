package io.quotient.core.placement;

import java.util.Comparator;
import java.util.List;

/**
 * The part of {@link WasteForecast} that sees GPUs losing the CPU their future jobs bring along: of a node's idle GPU
 * milli, how much its free CPU will leave unused. Two forms, by whether CPU is what the cluster runs out of (whether
 * the CPU-only jobs take CPU that GPU jobs need, {@link WasteForecast#excessCpuPerMilli}):
 * <ul>
 *   <li><b>CPU to spare</b> (no excess): GPU jobs keep arriving in the workload's mix and land wherever they fit, so
 *   a node's GPUs are filled by that mix: short by {@code max(0, I − C/ρ)}, with I the idle GPU milli, C the free CPU
 *   and ρ the GPU jobs' CPU per GPU milli.</li>
 *   <li><b>CPU short</b>: CPU decides which GPU jobs still fit. A node whose CPU is too little for the typical job
 *   still fills its GPUs with the jobs that ask little CPU per GPU, and those keep being placed as the cluster fills;
 *   one that keeps CPU for the CPU-hungriest jobs keeps it for jobs that mostly fail anyway. So the shortfall is taken
 *   over the GPU shapes one by one: {@code Σ_s w_s · max(0, U − C/ρ_s)}, with ρ_s the shape's CPU per GPU milli plus
 *   the excess, w_s its share of the GPU demand, and U the idle milli the forecast expects jobs to fill (its
 *   slivers stay idle whatever CPU the node keeps, and are counted already). It is convex in C: the first cores a
 *   node loses cost only the share of the hungriest shapes, the last ones cost most, where the single figure made
 *   every core on a short node cost the same and every core above ρ·I nothing (ρ is the shapes' ρ_s averaged by
 *   GPU demand).</li>
 * </ul>
 * Measured (README, "CPU-short clusters"): the shape-by-shape form takes 0.4–0.8 point off the families with 30 % of
 * the pods CPU-only; on the families with CPU to spare it cost 0.02–0.03 of the ratio to FGD on the fraction mixes,
 * whose small fractions ask many cores per GPU milli but are placed all the same, so there the mix's figure stays.
 */
final class CpuShortfall {

    private final boolean cpuShort;
    private final double meanCpuPerMilli;
    /** Per GPU shape, ascending: its CPU per GPU milli plus the excess. */
    private final double[] cpuPerMilli;
    /** From index i on: the shapes' summed share of the GPU demand, and the sum of share over CPU per milli. */
    private final double[] shareFrom;
    private final double[] sharePerCpuFrom;

    /**
     * @param gpuShapes         the workload's shapes that take GPUs
     * @param excessCpuPerMilli CPU milli per GPU milli that CPU-only jobs will take from the CPU GPU jobs need; above 0
     *                          the cluster is short of CPU
     */
    CpuShortfall(List<TargetWorkload.Shape> gpuShapes, double excessCpuPerMilli) {
        cpuShort = excessCpuPerMilli > 0;
        double cpu = 0;
        double gpu = 0;
        for (TargetWorkload.Shape s : gpuShapes) {
            cpu += s.probability() * s.cpuMilli();
            gpu += s.probability() * s.gpuCount() * s.gpuMilli();
        }
        meanCpuPerMilli = gpu == 0 ? 0 : cpu / gpu + excessCpuPerMilli;
        TargetWorkload.Shape[] byCpu = gpuShapes.stream().filter(s -> s.gpuCount() * s.gpuMilli() > 0)
                .sorted(Comparator.comparingDouble(CpuShortfall::ownCpuPerMilli)).toArray(TargetWorkload.Shape[]::new);
        cpuPerMilli = new double[byCpu.length];
        shareFrom = new double[byCpu.length + 1];
        sharePerCpuFrom = new double[byCpu.length + 1];
        for (int i = byCpu.length - 1; i >= 0; i--) {
            TargetWorkload.Shape s = byCpu[i];
            cpuPerMilli[i] = ownCpuPerMilli(s) + excessCpuPerMilli;
            double share = s.probability() * s.gpuCount() * s.gpuMilli() / gpu;
            shareFrom[i] = shareFrom[i + 1] + share;
            sharePerCpuFrom[i] = sharePerCpuFrom[i + 1] + (cpuPerMilli[i] > 0 ? share / cpuPerMilli[i] : 0);
        }
    }

    private static double ownCpuPerMilli(TargetWorkload.Shape s) {
        return s.cpuMilli() / ((double) s.gpuCount() * s.gpuMilli());
    }

    /**
     * The GPU milli of a node that its free CPU will leave unused.
     *
     * @param idle    the node's idle GPU milli
     * @param sliver  the part of it the forecast expects to stay idle as slivers
     * @param freeCpu the node's free CPU milli
     */
    double of(long idle, double sliver, long freeCpu) {
        if (meanCpuPerMilli == 0) {
            return 0;
        }
        if (!cpuShort) {
            return Math.max(0, idle - freeCpu / meanCpuPerMilli);
        }
        double fillable = idle - sliver;
        if (fillable <= 0) {
            return 0;
        }
        int first = firstAskingMore(freeCpu / fillable);
        return Math.max(0, fillable * shareFrom[first] - freeCpu * sharePerCpuFrom[first]);
    }

    /** The first of the sorted shapes asking more CPU per GPU milli than this: those after it are short here too. */
    private int firstAskingMore(double cpuPerMilliKept) {
        int low = 0;
        int high = cpuPerMilli.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (cpuPerMilli[middle] <= cpuPerMilliKept) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}

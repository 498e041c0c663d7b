package io.quotient.core.placement;

import java.util.ArrayList;
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
 *   class by class: {@code Σ_k w_k · max(0, U − C/ρ_k)}, with ρ_k the class's CPU per GPU milli plus the excess, w_k
 *   its share of the GPU demand, and U the idle milli the forecast expects jobs to fill (its slivers stay idle
 *   whatever CPU the node keeps, and are counted already). A class is what fills a GPU: each whole- or multi-GPU
 *   shape is one, since such a job holds its GPUs alone; the fractions together are one, since they share GPUs and a
 *   GPU filled by fractions brings their mixed CPU, not the CPU of its hungriest kind (taken one by one, the small
 *   fractions, with many cores per GPU milli, made every node look short of CPU). The shortfall is convex in C: the
 *   first cores a node loses cost only the share of the hungriest classes, the last ones cost most, where the single
 *   figure made every core on a short node cost the same and every core above ρ·I nothing (ρ is the classes' ρ_k
 *   averaged by GPU demand).</li>
 * </ul>
 * The class-by-class form is used only where CPU is short: it packs CPU-short clusters better, and on clusters with
 * CPU to spare it packed slightly worse than the mix's single figure, which stays there (docs/research/packing.md,
 * "CPU-short clusters").
 */
final class CpuShortfall {

    private final boolean cpuShort;
    private final double meanCpuPerMilli;
    /** Per class, ascending: its CPU per GPU milli plus the excess. */
    private final double[] cpuPerMilli;
    /** From index i on: the classes' summed share of the GPU demand, and the sum of share over CPU per milli. */
    private final double[] shareFrom;

    private final double[] sharePerCpuFrom;

    /** Jobs that fill a GPU: their CPU per GPU milli and their GPU milli (probability-weighted). */
    private record JobClass(double cpuPerMilli, double milli) {}

    /**
     * @param gpuShapes         the workload's shapes that take GPUs
     * @param excessCpuPerMilli CPU milli per GPU milli that CPU-only jobs will take from the CPU GPU jobs need; above 0
     *                          the cluster is short of CPU
     */
    CpuShortfall(List<TargetWorkload.Shape> gpuShapes, double excessCpuPerMilli) {
        cpuShort = excessCpuPerMilli > 0;
        TargetWorkload.GpuDemand demand = TargetWorkload.gpuDemand(gpuShapes);
        double gpu = demand.gpuMilli();
        meanCpuPerMilli = gpu == 0 ? 0 : demand.cpuPerMilli() + excessCpuPerMilli;
        List<JobClass> classes = classes(gpuShapes);
        cpuPerMilli = new double[classes.size()];
        shareFrom = new double[classes.size() + 1];
        sharePerCpuFrom = new double[classes.size() + 1];
        for (int i = classes.size() - 1; i >= 0; i--) {
            cpuPerMilli[i] = classes.get(i).cpuPerMilli() + excessCpuPerMilli;
            double share = classes.get(i).milli() / gpu;
            shareFrom[i] = shareFrom[i + 1] + share;
            sharePerCpuFrom[i] = sharePerCpuFrom[i + 1] + (cpuPerMilli[i] > 0 ? share / cpuPerMilli[i] : 0);
        }
    }

    /** Each whole- or multi-GPU shape on its own, the fractions pooled; ascending by CPU per GPU milli. */
    private static List<JobClass> classes(List<TargetWorkload.Shape> gpuShapes) {
        List<JobClass> classes = new ArrayList<>();
        double fractionCpu = 0;
        double fractionMilli = 0;
        for (TargetWorkload.Shape s : gpuShapes) {
            double milli = s.probability() * s.gpuCount() * s.gpuMilli();
            if (milli == 0) {
                continue;
            }
            if (s.gpuMilli() < TargetWorkload.Shape.WHOLE) {
                fractionCpu += s.probability() * s.cpuMilli();
                fractionMilli += milli;
            } else {
                classes.add(new JobClass(s.probability() * s.cpuMilli() / milli, milli));
            }
        }
        if (fractionMilli > 0) {
            classes.add(new JobClass(fractionCpu / fractionMilli, fractionMilli));
        }
        classes.sort(Comparator.comparingDouble(JobClass::cpuPerMilli));
        return classes;
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
        // the classes asking more than the node keeps per fillable milli are short here: a suffix of the sorted ones
        int first = Ascending.countAtMost(cpuPerMilli, freeCpu / fillable);
        return Math.max(0, fillable * shareFrom[first] - freeCpu * sharePerCpuFrom[first]);
    }
}

package io.quotient.core.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU shapes a node may host, grouped by what they ask of its GPUs (GPU count and share): the measures ask of
 * each shape whether the node has its CPU and whether enough GPUs have its share free, and the second answer is the
 * same for a whole group. Within a group the CPU asks are sorted with their cumulative probability, so the mass of
 * the shapes the node lacks CPU for is a binary search. A trace with model constraints has a hundred shapes or more
 * (145 on a third constrained) but only a few dozen groups, so scoring a node no longer walks every shape.
 */
final class ShapeGroups {

    private final int[] gpuCount;
    private final int[] gpuMilli;
    /** Per group, its shapes' CPU asks in ascending order, and the probability of the shapes asking up to each. */
    private final double[][] cpuAscending;

    private final double[][] massUpTo;

    /** Those of the GPU shapes that allow this model. */
    static ShapeGroups allowedOn(List<TargetWorkload.Shape> gpuShapes, String model) {
        return new ShapeGroups(
                gpuShapes.stream().filter(s -> s.allowsModel(model)).toList());
    }

    ShapeGroups(List<TargetWorkload.Shape> shapes) {
        Map<Long, List<TargetWorkload.Shape>> byGpuAsk = new LinkedHashMap<>();
        for (TargetWorkload.Shape s : shapes) {
            byGpuAsk.computeIfAbsent(((long) s.gpuCount() << 32) | s.gpuMilli(), k -> new ArrayList<>())
                    .add(s);
        }
        int groups = byGpuAsk.size();
        gpuCount = new int[groups];
        gpuMilli = new int[groups];
        cpuAscending = new double[groups][];
        massUpTo = new double[groups][];
        int g = 0;
        for (List<TargetWorkload.Shape> group : byGpuAsk.values()) {
            List<TargetWorkload.Shape> byCpu = group.stream()
                    .sorted(Comparator.comparingLong(TargetWorkload.Shape::cpuMilli))
                    .toList();
            gpuCount[g] = byCpu.get(0).gpuCount();
            gpuMilli[g] = byCpu.get(0).gpuMilli();
            cpuAscending[g] =
                    byCpu.stream().mapToDouble(TargetWorkload.Shape::cpuMilli).toArray();
            massUpTo[g] = new double[byCpu.size()];
            double mass = 0;
            for (int i = 0; i < byCpu.size(); i++) {
                mass += byCpu.get(i).probability();
                massUpTo[g][i] = mass;
            }
            g++;
        }
    }

    int size() {
        return gpuCount.length;
    }

    int gpuCount(int group) {
        return gpuCount[group];
    }

    int gpuMilli(int group) {
        return gpuMilli[group];
    }

    /** The probability of the group's shapes. */
    double mass(int group) {
        double[] upTo = massUpTo[group];
        return upTo[upTo.length - 1];
    }

    /** The probability of the group's shapes that ask more CPU than {@code freeCpu}. */
    double massNeedingMoreCpu(int group, long freeCpu) {
        // the shapes asking at most freeCpu (CPU milli are whole numbers, exact as doubles)
        int low = Ascending.countAtMost(cpuAscending[group], freeCpu);
        double[] upTo = massUpTo[group];
        return low == 0 ? upTo[upTo.length - 1] : upTo[upTo.length - 1] - upTo[low - 1];
    }

    /** How many of the first {@code gpus} GPUs have at least the group's share free. */
    int fittingGpus(int group, int[] gpuFree, int gpus) {
        int need = gpuMilli[group];
        int n = 0;
        for (int i = 0; i < gpus; i++) {
            if (gpuFree[i] >= need) {
                n++;
            }
        }
        return n;
    }

    /** The idle milli on the GPUs with less than the group's share free. */
    long tooSmall(int group, int[] gpuFree, int gpus) {
        int need = gpuMilli[group];
        long small = 0;
        for (int i = 0; i < gpus; i++) {
            if (gpuFree[i] < need) {
                small += gpuFree[i];
            }
        }
        return small;
    }
}

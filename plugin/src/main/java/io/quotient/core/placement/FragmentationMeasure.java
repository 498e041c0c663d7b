package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The FGD paper's fragmentation F_n(M) of a node against a target workload M (PACKING.md): for each
 * shape m, the idle GPU milli on n that m could not use, weighted by m's probability.
 * <ul>
 *   <li>m is CPU-only, n's model is not allowed for m, n lacks CPU for m, or fewer than k_m GPUs of n
 *   have d_m free: all idle GPU milli R_n is stranded for m;</li>
 *   <li>otherwise only the GPUs with less than d_m free are stranded.</li>
 * </ul>
 * Evaluation is O(shapes × GPUs) on the unsorted free vector, with no allocation, so policies can
 * evaluate hypothetical states (after a placement) cheaply. Thread-safe.
 */
public final class FragmentationMeasure implements NodeMeasure {

    private final TargetWorkload workload;
    private final long[] cpu;
    private final int[] milli;
    private final int[] count;
    private final double[] probability;
    private final double cpuOnlyProbability;
    private final Map<String, boolean[]> allowedByModel = new ConcurrentHashMap<>();

    public FragmentationMeasure(TargetWorkload workload) {
        this.workload = workload;
        List<TargetWorkload.Shape> gpuShapes = workload.shapes().stream().filter(s -> !s.cpuOnly()).toList();
        int n = gpuShapes.size();
        cpu = new long[n];
        milli = new int[n];
        count = new int[n];
        probability = new double[n];
        for (int i = 0; i < n; i++) {
            TargetWorkload.Shape s = gpuShapes.get(i);
            cpu[i] = s.cpuMilli();
            milli[i] = s.gpuMilli();
            count[i] = s.gpuCount();
            probability[i] = s.probability();
        }
        cpuOnlyProbability = workload.shapes().stream().filter(TargetWorkload.Shape::cpuOnly)
                .mapToDouble(TargetWorkload.Shape::probability).sum();
    }

    public TargetWorkload workload() {
        return workload;
    }

    /** F_n(M) of the node in its current state. */
    public double of(ClusterState state, int node) {
        int[] gpus = new int[state.gpuCount(node)];
        state.copyGpuFree(node, gpus);
        return of(state.node(node).gpuModel(), state.freeCpu(node), gpus, gpus.length);
    }

    /**
     * F(M) of a node of that GPU model with {@code freeCpu} CPU milli and the first {@code gpuCount}
     * entries of {@code gpuFree} as the free share of its GPUs (0..1000 each).
     */
    @Override
    public double of(String model, long freeCpu, int[] gpuFree, int gpuCount) {
        long idle = 0;
        for (int i = 0; i < gpuCount; i++) {
            idle += gpuFree[i];
        }
        if (idle == 0) {
            return 0;
        }
        boolean[] allowed = allowed(model);
        double stranded = cpuOnlyProbability * idle;
        for (int s = 0; s < milli.length; s++) {
            if (!allowed[s] || freeCpu < cpu[s]) {
                stranded += probability[s] * idle;
                continue;
            }
            int need = milli[s];
            int usable = 0;
            long small = 0;
            for (int i = 0; i < gpuCount; i++) {
                int g = gpuFree[i];
                if (g >= need) {
                    usable++;
                } else {
                    small += g;
                }
            }
            stranded += probability[s] * (usable >= count[s] ? small : idle);
        }
        return stranded;
    }

    /** Σ_n F_n(M) over the cluster, in GPU milli. */
    public double clusterFragmentation(ClusterState state) {
        double sum = 0;
        for (int n = 0; n < state.nodeCount(); n++) {
            sum += of(state, n);
        }
        return sum;
    }

    private boolean[] allowed(String model) {
        boolean[] cached = allowedByModel.get(model);
        if (cached != null) {
            return cached;
        }
        List<TargetWorkload.Shape> gpuShapes = workload.shapes().stream().filter(s -> !s.cpuOnly()).toList();
        boolean[] allowed = new boolean[gpuShapes.size()];
        for (int i = 0; i < allowed.length; i++) {
            allowed[i] = !model.isEmpty() && gpuShapes.get(i).allowsModel(model);
        }
        allowedByModel.put(model, allowed);
        return allowed;
    }
}

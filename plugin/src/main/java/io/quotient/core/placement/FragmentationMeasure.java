package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The FGD paper's fragmentation F_n(M) of a node against a target workload M (docs/research/packing.md): for each
 * shape m, the idle GPU milli on n that m could not use, weighted by m's probability.
 * <ul>
 *   <li>m is CPU-only, n's model is not allowed for m, n lacks CPU for m, or fewer than k_m GPUs of n
 *   have d_m free: all idle GPU milli R_n is stranded for m;</li>
 *   <li>otherwise only the GPUs with less than d_m free are stranded.</li>
 * </ul>
 * Evaluation is O(groups × (log shapes + GPUs)) on the unsorted free vector ({@link ShapeGroups}: shapes asking the same
 * of the GPUs are counted together), with no allocation, so policies can evaluate hypothetical states (after a
 * placement) cheaply. Thread-safe.
 */
public final class FragmentationMeasure implements NodeMeasure {

    private final TargetWorkload workload;
    private final List<TargetWorkload.Shape> gpuShapes;
    private final double cpuOnlyProbability;
    private final Map<String, ModelShapes> byModel = new ConcurrentHashMap<>();
    /** Held, not passed as {@code this::shapesOn}: a method reference made at the call is allocated on every call. */
    private final Function<String, ModelShapes> shapesOn = this::shapesOn;

    /** The GPU shapes a model allows, grouped, and the probability of those it does not (all idle is stranded). */
    private record ModelShapes(ShapeGroups allowed, double elsewhere) {}

    public FragmentationMeasure(TargetWorkload workload) {
        this.workload = workload;
        gpuShapes = workload.shapes().stream().filter(s -> !s.cpuOnly()).toList();
        cpuOnlyProbability = workload.shapes().stream()
                .filter(TargetWorkload.Shape::cpuOnly)
                .mapToDouble(TargetWorkload.Shape::probability)
                .sum();
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
        ModelShapes shapes = byModel.computeIfAbsent(model, shapesOn);
        ShapeGroups groups = shapes.allowed();
        double stranded = (cpuOnlyProbability + shapes.elsewhere()) * idle;
        for (int g = 0; g < groups.size(); g++) {
            // a group whose GPUs do not fit strands all idle for its whole mass, whatever the CPU: counted as one
            // term, so that a CPU-only pod that changes nothing else leaves the value unchanged to the last bit
            if (groups.fittingGpus(g, gpuFree, gpuCount) < groups.gpuCount(g)) {
                stranded += groups.mass(g) * idle;
            } else {
                double lacking = groups.massNeedingMoreCpu(g, freeCpu);
                stranded += lacking * idle + (groups.mass(g) - lacking) * groups.tooSmall(g, gpuFree, gpuCount);
            }
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

    private ModelShapes shapesOn(String model) {
        // FGD's definition: a node without a model hosts no GPU shape, not even those that allow any model
        double elsewhere = gpuShapes.stream()
                .filter(s -> model.isEmpty() || !s.allowsModel(model))
                .mapToDouble(TargetWorkload.Shape::probability)
                .sum();
        return new ModelShapes(ShapeGroups.allowedOn(model.isEmpty() ? List.of() : gpuShapes, model), elsewhere);
    }
}

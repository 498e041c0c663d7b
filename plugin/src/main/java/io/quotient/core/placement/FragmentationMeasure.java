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

    private final boolean modelsOwnMix;

    /** FGD's F(M), as the paper defines it and the cluster's fragmentation is reported. */
    public FragmentationMeasure(TargetWorkload workload) {
        this(workload, false);
    }

    private FragmentationMeasure(TargetWorkload workload, boolean modelsOwnMix) {
        this.modelsOwnMix = modelsOwnMix;
        this.workload = workload;
        gpuShapes = workload.shapes().stream().filter(s -> !s.cpuOnly()).toList();
        cpuOnlyProbability = workload.shapes().stream()
                .filter(TargetWorkload.Shape::cpuOnly)
                .mapToDouble(TargetWorkload.Shape::probability)
                .sum();
    }

    /**
     * F against the mix of the jobs that can land on the node: on a node of model X, the shapes X does not allow are
     * left out and the others' probabilities renormalised, F_X(M) = (F(M) − e_X · R) / (1 − e_X) with e_X the
     * probability of the shapes X does not allow (a node no shape can use counts all its idle GPU as lost). FGD's F
     * counts those shapes as stranding all of the node's idle GPU whatever is placed there; between two placements
     * on nodes of X, the part that differs is then scaled by 1 − e_X, so the more of the workload is pinned to other
     * models, the less a pod pinned to X is steered by the fragmentation of its own model's jobs. Quotient adds F
     * with a small weight to decide between placements its forecast sees alike; with pods pinned to models in the
     * fleet's mix, that weight fell to a model's share of the workload, and the decisions it exists for went
     * unmade. Which model a job may take is the model reserve's question ({@link ModelReserve}), not this one's.
     * Without pinned shapes it is FGD's F to the last bit.
     */
    static FragmentationMeasure withinModelsMix(TargetWorkload workload) {
        return new FragmentationMeasure(workload, true);
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
        double others = shapes.elsewhere();
        double stranded = (cpuOnlyProbability + (modelsOwnMix ? 0 : others)) * idle;
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
        if (!modelsOwnMix) {
            return stranded;
        }
        double own = 1 - others;
        // a model that no shape of the workload allows (nor CPU-only pods) loses all its idle GPU
        return own <= 1e-9 ? idle : stranded / own;
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

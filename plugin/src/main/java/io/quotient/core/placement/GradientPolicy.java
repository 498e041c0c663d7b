package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;

/**
 * The fragmentation-gradient shape shared by FGD and Quotient's policy: score a node by how much a
 * {@link NodeMeasure} of lost GPU capacity changes if the demand lands there,
 * {@code ⌊100 · sigmoid((before − after)/1000)⌋}, unnormalised, ties to the seeded node order. A
 * fraction on one GPU tries every GPU that fits; whole GPUs take free GPUs; several GPUs with a fraction
 * each take the tightest-fitting ones.
 *
 * <p>Scores are memoised per node state and demand shape ({@link NodeScoreMemo}) and the "before" value
 * per node version, so a placement on a 1,000-node cluster evaluates the measure only where something
 * changed.
 */
abstract class GradientPolicy extends ScoringPolicy {

    private final NodeMeasure measure;
    private final NodeFragmentationCache before;
    private final NodeMeasure cpuOnlyMeasure;
    private final NodeFragmentationCache beforeCpuOnly;
    private final NodeScoreMemo memo = new NodeScoreMemo();
    private final boolean tightestAmongEqual;
    private int[] scratch = new int[8];
    private int[] chosenGpu = new int[0];
    private double decrease;
    private int left;

    /**
     * @param tightestAmongEqual among GPUs with the same score, prefer the one left with the least free
     *                           share, within the node and across nodes (otherwise the lowest index and
     *                           the node order, as the FGD simulator does)
     */
    GradientPolicy(String name, long seed, NodeMeasure measure, boolean tightestAmongEqual) {
        this(name, seed, measure, measure, tightestAmongEqual);
    }

    /**
     * @param cpuOnlyMeasure the measure that scores demands without a GPU (the same one unless a policy judges
     *                       where CPU-only pods go by other means than GPU placements)
     */
    GradientPolicy(
            String name, long seed, NodeMeasure measure, NodeMeasure cpuOnlyMeasure, boolean tightestAmongEqual) {
        super(name, seed);
        this.measure = measure;
        this.before = new NodeFragmentationCache(measure);
        this.cpuOnlyMeasure = cpuOnlyMeasure;
        this.beforeCpuOnly = cpuOnlyMeasure == measure ? before : new NodeFragmentationCache(cpuOnlyMeasure);
        this.tightestAmongEqual = tightestAmongEqual;
    }

    /**
     * FGD's score of a decrease, 0..100. Quotient depends on its coarseness and on a level starting at a zero
     * decrease: {@link WasteForecast}'s W(g) is the weighted mean of W(g − d), so the average filler of a gap falls
     * by zero and a level boundary there separates the better-than-average fillers from the worse; within a level the
     * tightest gap wins. Finer levels, or the boundary moved by ten milli, send PAI 2020's fraction-only families
     * into a mode above FGD (docs/research/packing.md, "Choosing the constants").
     */
    static long quantised(double decrease) {
        return (long) (MAX_SCORE / (1 + Math.exp(-decrease / ResourceDemand.WHOLE)));
    }

    @Override
    void prepare(ClusterState state, ResourceDemand demand) {
        if (chosenGpu.length != state.nodeCount()) {
            chosenGpu = new int[state.nodeCount()];
        }
    }

    @Override
    final long score(ClusterState state, int node, ResourceDemand demand) {
        if (!memo.lookup(state, node, demand)) {
            computeDecrease(state, node, demand);
            memo.store(state, node, demand, decrease, quantised(decrease), left, chosenGpu[node]);
        }
        chosenGpu[node] = memo.gpu();
        int l = memo.left();
        double cost = demand.needsGpu() ? costPerMilli(state, node) : 0;
        // the cost changes as the cluster fills while the node stays the same, so it is applied after the memo
        long score = cost == 0
                ? memo.score()
                : quantised(memo.decrease() - cost * demand.gpuCount() * demand.milliOn(state.node(node)));
        // among nodes with the same score, the one whose GPU is left tightest (best fit across nodes)
        return tightestAmongEqual ? score * ResourceDemand.WHOLE - l : score;
    }

    @Override
    final boolean normalises() {
        return false;
    }

    @Override
    final Allocation allocationOn(ClusterState state, int node, ResourceDemand demand) {
        if (onOneGpu(state, node, demand)) {
            return allocationWithGpus(state, node, demand, new int[] {chosenGpu[node]});
        }
        return tightestAllocation(state, node, demand);
    }

    /**
     * What taking one GPU milli of this node costs beyond the change of the measure (0 here); the same for every
     * GPU of the node, so it only moves the choice between nodes.
     */
    double costPerMilli(ClusterState state, int node) {
        return 0;
    }

    /**
     * Whether an earlier GPU of the node has the same free capacity (exactly, in units: two GPUs of one free milli may
     * differ in whether a MiB request fits): the measures do not depend on which GPU holds which
     * share, so that GPU scored the same, and as the first of equals it keeps the choice; the later one is not scored
     * again (a node with five empty GPUs was evaluated five times for every fraction).
     */
    private static boolean sameFreeEarlier(ClusterState state, int node, int gpu) {
        long free = state.gpuFreeUnits(node, gpu);
        for (int g = 0; g < gpu; g++) {
            if (state.gpuFreeUnits(node, g) == free) {
                return true;
            }
        }
        return false;
    }

    private static boolean onOneGpu(ClusterState state, int node, ResourceDemand demand) {
        return demand.gpuCount() == 1 && demand.milliOn(state.node(node)) < ResourceDemand.WHOLE;
    }

    /**
     * Sets {@link #decrease} to how much the measure falls if the demand lands on the node and {@link #left} to
     * the share left on the chosen GPU of a fraction (0 otherwise); a fraction tries every GPU that fits and keeps
     * the best quantised score, among equals the tightest when {@code tightestAmongEqual}.
     */
    private void computeDecrease(ClusterState state, int node, ResourceDemand demand) {
        NodeMeasure scoring = demand.needsGpu() ? measure : cpuOnlyMeasure;
        double current = (demand.needsGpu() ? before : beforeCpuOnly).of(state, node);
        int gpus = state.gpuCount(node);
        if (scratch.length < gpus) {
            scratch = new int[gpus];
        }
        String model = state.node(node).gpuModel();
        long cpuAfter = state.freeCpu(node) - demand.cpuMilli();
        int milli = demand.needsGpu() ? demand.milliOn(state.node(node)) : 0;
        left = 0;
        if (onOneGpu(state, node, demand)) {
            // below any score, so chosenGpu[node] is always set here and never left from an earlier state
            long best = Long.MIN_VALUE;
            int bestLeft = Integer.MAX_VALUE;
            for (int g = 0; g < gpus; g++) {
                // a MiB share fits exactly yet may round to one milli more than the rounded-down free share
                int after = Math.max(0, state.gpuFree(node, g) - milli);
                if (state.holds(node, g, demand) && !sameFreeEarlier(state, node, g)) {
                    state.copyGpuFree(node, scratch);
                    scratch[g] = after;
                    double fall = current - scoring.of(model, cpuAfter, scratch, gpus);
                    long s = quantised(fall);
                    if (s > best || (tightestAmongEqual && s == best && after < bestLeft)) {
                        best = s;
                        bestLeft = after;
                        decrease = fall;
                        chosenGpu[node] = g;
                    }
                }
            }
            left = bestLeft;
            return;
        }
        state.copyGpuFree(node, scratch);
        if (demand.needsGpu()) {
            for (int g : GpuPicker.tightest(state, node, demand)) {
                scratch[g] = Math.max(0, scratch[g] - milli);
            }
        }
        decrease = current - scoring.of(model, cpuAfter, scratch, gpus);
    }
}

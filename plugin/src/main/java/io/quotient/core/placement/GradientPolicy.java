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
    private final NodeScoreMemo memo = new NodeScoreMemo();
    private final boolean tightestAmongEqual;
    private int[] scratch = new int[8];
    private int[] chosenGpu = new int[0];

    /**
     * @param tightestAmongEqual among GPUs with the same score, prefer the one left with the least free
     *                           share, within the node and across nodes (otherwise the lowest index and
     *                           the node order, as the FGD simulator does)
     */
    GradientPolicy(String name, long seed, NodeMeasure measure, boolean tightestAmongEqual) {
        super(name, seed);
        this.measure = measure;
        this.before = new NodeFragmentationCache(measure);
        this.tightestAmongEqual = tightestAmongEqual;
    }

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
        if (memo.lookup(state, node, demand)) {
            chosenGpu[node] = memo.gpu();
            return memo.score();
        }
        long score = computeScore(state, node, demand);
        memo.store(state, node, demand, score, chosenGpu[node]);
        return score;
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

    private static boolean onOneGpu(ClusterState state, int node, ResourceDemand demand) {
        return demand.gpuCount() == 1 && demand.milliOn(state.node(node)) < ResourceDemand.WHOLE;
    }

    private long computeScore(ClusterState state, int node, ResourceDemand demand) {
        double current = before.of(state, node);
        int gpus = state.gpuCount(node);
        if (scratch.length < gpus) {
            scratch = new int[gpus];
        }
        String model = state.node(node).gpuModel();
        long cpuAfter = state.freeCpu(node) - demand.cpuMilli();
        int milli = demand.needsGpu() ? demand.milliOn(state.node(node)) : 0;
        if (onOneGpu(state, node, demand)) {
            // below any score, so chosenGpu[node] is always set here and never left from an earlier state
            long best = Long.MIN_VALUE;
            int bestLeft = Integer.MAX_VALUE;
            for (int g = 0; g < gpus; g++) {
                int left = state.gpuFree(node, g) - milli;
                if (left >= 0) {
                    state.copyGpuFree(node, scratch);
                    scratch[g] = left;
                    long s = quantised(current - measure.of(model, cpuAfter, scratch, gpus));
                    if (s > best || (tightestAmongEqual && s == best && left < bestLeft)) {
                        best = s;
                        bestLeft = left;
                        chosenGpu[node] = g;
                    }
                }
            }
            // among nodes with the same score, the one whose GPU is left tightest (best fit across nodes)
            return tightestAmongEqual ? best * ResourceDemand.WHOLE - bestLeft : best;
        }
        state.copyGpuFree(node, scratch);
        if (demand.needsGpu()) {
            for (int g : GpuPicker.tightest(state, node, milli, demand.gpuCount())) {
                scratch[g] -= milli;
            }
        }
        long score = quantised(current - measure.of(model, cpuAfter, scratch, gpus));
        return tightestAmongEqual ? score * ResourceDemand.WHOLE : score;
    }
}

package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;

/**
 * Quotient's default placement: FGD's gradient (place where the lost capacity grows least, the same
 * sigmoid quantisation, ties to a fixed seeded node order, which consolidates equal choices) applied to
 * {@link WasteForecast} instead of FGD's one-pod-ahead fragmentation. The forecast looks further ahead
 * in three ways: it follows each GPU's leftover until nothing more fits (so fractions are paired into
 * combinations that fill a GPU well), it does not count on rare pod sizes to fill gaps, and it sees GPUs
 * losing the CPU their future jobs need. FGD's own fragmentation is added with a small weight
 * ({@link QuotientSettings#fragmentationWeight()}), measured against the jobs that can land on the node's model
 * ({@link FragmentationMeasure#withinModelsMix}, so that jobs pinned to other models do not thin it out): it
 * asks shape by shape whether a node still has the CPU and the GPU share together, which the forecast, seeing CPU as an average per GPU, cannot (without it, fraction-only
 * traces whose CPU-hungry fractions can pair only on CPU-rich nodes split into a good and a bad mode above FGD;
 * docs/research/packing.md, "Fractions only").
 * CPU-only pods are scored by the forecast alone (see {@link ClusterForecast#withoutFragmentation}).
 * Within a node, a fraction takes the GPU with the best score and, among equals, the one left with the least free
 * share, so larger free blocks stay intact.
 *
 * <p>On top of the forecast, GPU milli taken on a model that constrained jobs press on costs its
 * {@link ModelReserve} (times {@link QuotientSettings#reserveWeight()}): a job that may run anywhere goes to the
 * models the constrained jobs do not need, and a job constrained to some models to the least pressed of them.
 * The reserve follows the cluster as it fills, so it is worked out at every GPU placement, in one pass over the
 * nodes; it is zero, and costs nothing, on a workload without constraints or constrained in the cluster's mix.
 * Without it, on generated families whose constraints lean on scarce models (as the published gpuspec files do),
 * the forecast alone left more GPUs idle than FGD (docs/research/packing.md, "Model constraints").
 */
final class QuotientPolicy extends GradientPolicy {

    private final TargetWorkload workload;
    private final double reserveWeight;
    private List<NodeSpec> reserveNodes;
    private ModelReserve reserve;
    private double[] reserveByNode = new double[0];
    private final ClusterForecast forecast;

    /**
     * The forecast for the nodes the policy places on ({@link WasteForecast#forCluster}: how much CPU the CPU-only
     * jobs will take from GPU jobs depends on the nodes' spare CPU), chosen again when the nodes change, before the
     * first score on them; plus FGD's fragmentation times {@link QuotientSettings#fragmentationWeight()}. The
     * forecast sees CPU only as the workload's average CPU per GPU milli, so two placements that leave gaps it
     * expects to fill look alike even when one of them leaves a node without the CPU that the shapes able to fill
     * its gaps bring along; FGD's measure asks for each shape whether the node still has its CPU and GPU share
     * together, so its small weight decides between such placements. One per policy instance, like the policy
     * not shared between threads.
     */
    private static final class ClusterForecast implements NodeMeasure {
        private final TargetWorkload workload;
        private final double rareSizeShare;
        private final double fragmentationWeight;
        private final FragmentationMeasure fragmentation;
        private WasteForecast forecast;

        ClusterForecast(TargetWorkload workload, QuotientSettings settings) {
            this.workload = workload;
            this.rareSizeShare = settings.rareSizeShare();
            this.fragmentationWeight = settings.fragmentationWeight();
            this.fragmentation = FragmentationMeasure.withinModelsMix(workload);
            this.forecast = WasteForecast.forWorkload(workload, rareSizeShare);
        }

        /**
         * The forecast alone, for CPU-only pods: the fragmentation term is there to judge GPU placements (whether a
         * node keeps the CPU *and* the GPU share of the shapes that can fill its gaps); for a pod that takes only CPU
         * the forecast's CPU term already says where CPU is spare, and FGD's one-pod-ahead CPU thresholds, added to
         * it, sent CPU-only pods to the wrong nodes once the cluster ran short of CPU (docs/research/packing.md,
         * "CPU-only pods").
         */
        double withoutFragmentation(String model, long freeCpu, int[] gpuFree, int gpuCount) {
            return forecast.of(model, freeCpu, gpuFree, gpuCount);
        }

        void fitTo(List<NodeSpec> nodes) {
            forecast = WasteForecast.forCluster(workload, rareSizeShare, nodes);
        }

        @Override
        public double of(String model, long freeCpu, int[] gpuFree, int gpuCount) {
            double lost = forecast.of(model, freeCpu, gpuFree, gpuCount);
            return fragmentationWeight == 0
                    ? lost
                    : lost + fragmentationWeight * fragmentation.of(model, freeCpu, gpuFree, gpuCount);
        }
    }

    QuotientPolicy(long seed, TargetWorkload workload) {
        this(seed, workload, QuotientSettings.DEFAULT);
    }

    QuotientPolicy(long seed, TargetWorkload workload, QuotientSettings settings) {
        this(seed, workload, settings, new ClusterForecast(workload, settings));
    }

    private QuotientPolicy(long seed, TargetWorkload workload, QuotientSettings settings, ClusterForecast forecast) {
        super("quotient", seed, forecast, forecast::withoutFragmentation, true);
        this.forecast = forecast;
        this.workload = workload;
        this.reserveWeight = settings.reserveWeight();
    }

    @Override
    void prepare(ClusterState state, ResourceDemand demand) {
        super.prepare(state, demand);
        if (state.nodes() != reserveNodes) {
            reserveNodes = state.nodes();
            forecast.fitTo(reserveNodes);
            reserve = new ModelReserve(workload, reserveNodes);
            reserveByNode = new double[state.nodeCount()];
        }
        if (reserve.steers() && demand.needsGpu()) {
            reserve.reserveByNode(state, reserveByNode);
        }
    }

    @Override
    double costPerMilli(ClusterState state, int node) {
        return reserve.steers() ? reserveWeight * reserveByNode[node] : 0;
    }
}

package io.quotient.sim;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.FragmentationMeasure;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.TieBreak;
import java.util.List;
import java.util.Optional;

/**
 * Replays a trace against a placement policy with the protocol of docs/research/packing.md: pods in
 * {@link ArrivalOrder}, one at a time, no departures, no retries; after every pod the arrived %,
 * unallocated GPU % and fragmentation (amount and ratio, against the trace's own target workload) are
 * sampled into a {@link Curve}.
 */
public final class Simulator {

    /** Called after each pod of a run, so a caller can show progress. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (seed, done, total) -> {};

        void update(long seed, int done, int total);
    }

    public static final double DEFAULT_INFLATION = 1.3;

    private final List<NodeSpec> nodes;
    private final List<TracePod> trace;
    private final TargetWorkload workload;
    private final FragmentationMeasure measure;
    private final double inflation;

    public Simulator(List<NodeSpec> nodes, List<TracePod> trace, double inflation) {
        if (!(inflation > 0)) {
            throw new IllegalArgumentException("inflation ratio must be positive, was " + inflation);
        }
        this.nodes = List.copyOf(nodes);
        this.trace = List.copyOf(trace);
        this.workload =
                TargetWorkload.fromDemands(trace.stream().map(TracePod::demand).toList());
        this.measure = new FragmentationMeasure(workload);
        this.inflation = inflation;
    }

    public TargetWorkload workload() {
        return workload;
    }

    /** One run per seed, in order, collected into a report. */
    public SimulationReport simulate(String policyName, List<Long> seeds, Progress progress) {
        return simulate(Placement.policy(policyName, TieBreak.FIXED_ORDER), seeds, progress);
    }

    /** One run per seed, in order, collected into a report labelled with the placement. */
    public SimulationReport simulate(Placement placement, List<Long> seeds, Progress progress) {
        int gpus = nodes.stream().mapToInt(NodeSpec::gpuCount).sum();
        List<RunResult> runs =
                seeds.stream().map(seed -> run(placement, seed, progress)).toList();
        return new SimulationReport(placement.label(), nodes.size(), gpus, trace.size(), inflation, runs);
    }

    public RunResult run(String policyName, long seed, Progress progress) {
        return run(Placement.policy(policyName, TieBreak.FIXED_ORDER), seed, progress);
    }

    public RunResult run(Placement placement, long seed, Progress progress) {
        PlacementPolicy policy = placement.factory().create(seed, workload, nodes);
        ClusterState state = new ClusterState(nodes);
        double total = state.totalGpuMilli();
        List<TracePod> order = ArrivalOrder.of(trace, seed, state.totalGpuMilli(), inflation);
        double[] nodeFragmentation = new double[state.nodeCount()];
        double fragmentation = 0;
        for (int n = 0; n < state.nodeCount(); n++) {
            nodeFragmentation[n] = measure.of(state, n);
            fragmentation += nodeFragmentation[n];
        }
        Curve curve = new Curve();
        long arrived = 0;
        long allocated = 0;
        int scheduled = 0;
        double firstRefusal = Double.NaN;
        curve.record(0, 100, 100 * fragmentation / total, ratio(fragmentation, total));
        long start = System.nanoTime();
        for (int i = 0; i < order.size(); i++) {
            TracePod pod = order.get(i);
            arrived += pod.gpuMilli();
            Optional<Allocation> placed = policy.place(state, pod.demand());
            if (placed.isPresent()) {
                Allocation a = placed.get();
                state.allocate(a);
                scheduled++;
                allocated += a.totalGpuMilli();
                int n = a.nodeIndex();
                double updated = measure.of(state, n);
                fragmentation += updated - nodeFragmentation[n];
                nodeFragmentation[n] = updated;
            } else if (pod.gpuMilli() > 0 && Double.isNaN(firstRefusal)) {
                firstRefusal = 100.0 * arrived / total;
            }
            curve.record(
                    100 * arrived / total,
                    100 * (total - allocated) / total,
                    100 * fragmentation / total,
                    ratio(fragmentation, total - allocated));
            progress.update(seed, i + 1, order.size());
        }
        double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        Curve.Point at100 = curve.at(100);
        return new RunResult(
                seed,
                at100.unallocatedGpuPct(),
                at100.fragAmountPct(),
                at100.fragRatioPct(),
                scheduled,
                order.size() - scheduled,
                order.size() / seconds,
                firstRefusal,
                curve);
    }

    private static double ratio(double fragmentation, double idle) {
        return idle <= 0 ? 0 : 100 * fragmentation / idle;
    }
}

package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Placement speed on the 1,213-node openb cluster, one thread. Prints, per policy: placements per second
 * in a full simulated run of the default trace (place + allocate + bookkeeping, failed pods included), and
 * place() calls per second against a half-full cluster, with the run's unallocated GPU % and fragmentation at
 * 100 % arrived; then fgd and quotient on two generated families with a third and half of the GPU pods constrained to
 * models (where Quotient's model reserve is recomputed for every GPU placement); then the wall time of a 10-seed
 * simulation of fgd and quotient.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=PlacementThroughputBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class PlacementThroughputBenchmark {

    private static final Path DATA = Path.of(System.getProperty("quotient.data.dir", "../data/openb"));

    @Test
    void placementsPerSecondPerPolicyAndTenSeedSimulationTime() {
        List<NodeSpec> nodes = TraceReader.readNodes(DATA.resolve("openb_node_list_gpu_node.csv"));
        List<TracePod> pods = TraceReader.readPods(DATA.resolve("openb_pod_list_default.csv"));
        Simulator simulator = new Simulator(nodes, pods, Simulator.DEFAULT_INFLATION);
        for (String policy : PlacementPolicies.names()) {
            simulator.run(policy, 41, Simulator.Progress.NONE); // warm-up: JIT and caches
            RunResult run = simulator.run(policy, 42, Simulator.Progress.NONE);
            double calls = placeCallsPerSecond(policy, nodes, pods, simulator.workload());
            System.out.printf(
                    Locale.ROOT,
                    "%-10s simulate: %,8.0f placements/s   place() on a half-full cluster: %,8.0f/s"
                            + "   seed 42: unallocated %5.2f %%, fragmentation %5.2f %%%n",
                    policy,
                    run.placementsPerSecond(),
                    calls,
                    run.unallocatedGpuPctAt100(),
                    run.fragAmountPctAt100());
            assertThat(run.placementsPerSecond()).isPositive();
        }
        // families where the model reserve is at work on every GPU placement: a third of the GPU pods constrained as
        // gpuspec05's are, and half of them by the cluster's model mix (the most shapes of the grid)
        onFamily(nodes, "gpuspec05", "tspec33", new TraceFamily(0.33, null, null, null, TraceFamily.ModelMix.TRACE));
        onFamily(nodes, "default", "spec50", new TraceFamily(0.50, null, null, null));
        for (String policy : List.of("fgd", "quotient")) {
            long start = System.nanoTime();
            SimulationReport report = simulator.simulate(
                    policy, LongStream.rangeClosed(42, 51).boxed().toList(), Simulator.Progress.NONE);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "10-seed simulate of default with %-8s: %5.1f s (unallocated %.2f %%)%n",
                    policy,
                    seconds,
                    report.mean().unallocatedGpuPctAt100());
        }
    }

    private static void onFamily(List<NodeSpec> nodes, String base, String label, TraceFamily family) {
        List<TracePod> pods =
                new TraceGenerator(TraceReader.readPods(PodLists.of(DATA, base)), nodes).generate(family, 42);
        Simulator simulator = new Simulator(nodes, pods, Simulator.DEFAULT_INFLATION);
        for (String policy : List.of("fgd", "quotient")) {
            simulator.run(policy, 41, Simulator.Progress.NONE);
            RunResult run = simulator.run(policy, 42, Simulator.Progress.NONE);
            System.out.printf(
                    Locale.ROOT,
                    "%-10s simulate of %s: %,8.0f placements/s   seed 42: unallocated %5.2f %%  " + "(%d shapes)%n",
                    policy,
                    label,
                    run.placementsPerSecond(),
                    run.unallocatedGpuPctAt100(),
                    simulator.workload().shapes().size());
            assertThat(run.placementsPerSecond()).isPositive();
        }
    }

    /** place() without allocating, on a cluster filled to about half by the trace. */
    private static double placeCallsPerSecond(
            String policy, List<NodeSpec> nodes, List<TracePod> pods, TargetWorkload workload) {
        ClusterState state = new ClusterState(nodes);
        PlacementPolicy filler = PlacementPolicies.create("bestfit", 1, workload);
        List<TracePod> order = ArrivalOrder.of(pods, 1, state.totalGpuMilli(), Simulator.DEFAULT_INFLATION);
        int half = order.size() / 2;
        for (TracePod pod : order.subList(0, half)) {
            filler.place(state, pod.demand()).ifPresent(state::allocate);
        }
        PlacementPolicy measured = PlacementPolicies.create(policy, 1, workload);
        List<ResourceDemand> demands =
                order.subList(half, order.size()).stream().map(TracePod::demand).toList();
        for (ResourceDemand d : demands) {
            measured.place(state, d); // warm-up
        }
        long start = System.nanoTime();
        int calls = 0;
        while (System.nanoTime() - start < 2_000_000_000L) {
            for (ResourceDemand d : demands) {
                measured.place(state, d);
            }
            calls += demands.size();
        }
        return calls / ((System.nanoTime() - start) / 1e9);
    }
}

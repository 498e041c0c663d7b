package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.TieBreak;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Quotient's policy (alone and as the service wraps it) on random members of random trace families, on a slice of
 * the openb cluster (every 16th node) with a sample of the pods: it never places a pod on a GPU model outside its
 * {@code gpu_spec}, never gives out more CPU, memory or GPU share than a node has, and the same seed gives the
 * same placements.
 */
class GeneratedFamilyPropertiesTest {

    private static final Path DATA = Path.of(System.getProperty("quotient.data.dir", "../data/openb"));
    private static final List<NodeSpec> NODES =
            everyNth(TraceReader.readNodes(DATA.resolve("openb_node_list_gpu_node.csv")), 16);
    private static final List<TracePod> BASE =
            everyNth(TraceReader.readPods(DATA.resolve("openb_pod_list_gpuspec05.csv")), 12);
    private static final TraceGenerator GENERATOR = new TraceGenerator(BASE, NODES);

    private static <T> List<T> everyNth(List<T> all, int n) {
        List<T> slice = new ArrayList<>();
        for (int i = 0; i < all.size(); i += n) {
            slice.add(all.get(i));
        }
        return slice;
    }

    @Property(tries = 25)
    void quotientHonoursModelsAndCapacityAndIsDeterministic(
            @ForAll("families") TraceFamily family,
            @ForAll("seeds") long seed,
            @ForAll("placements") Placement placement) {
        List<TracePod> pods = GENERATOR.generate(family, seed);
        TargetWorkload workload =
                TargetWorkload.fromDemands(pods.stream().map(TracePod::demand).toList());
        List<TracePod> order = ArrivalOrder.of(
                pods, seed, 1000L * NODES.stream().mapToInt(NodeSpec::gpuCount).sum(), 1.3);
        List<Allocation> first = replay(placement.factory().create(seed, workload, NODES), order);
        List<Allocation> second = replay(placement.factory().create(seed, workload, NODES), order);
        assertThat(second).as("same seed, same placements").isEqualTo(first);
    }

    /** Places the pods in order, checking every placement against the state it was made in. */
    private static List<Allocation> replay(PlacementPolicy policy, List<TracePod> order) {
        ClusterState state = new ClusterState(NODES);
        long[] cpu = new long[NODES.size()];
        long[] memory = new long[NODES.size()];
        int[][] gpu = new int[NODES.size()][];
        for (int n = 0; n < NODES.size(); n++) {
            gpu[n] = new int[NODES.get(n).gpuCount()];
        }
        List<Allocation> placements = new ArrayList<>();
        for (TracePod pod : order) {
            ResourceDemand d = pod.demand();
            Optional<Allocation> placed = policy.place(state, d);
            placed.ifPresent(a -> {
                NodeSpec node = NODES.get(a.nodeIndex());
                if (d.needsGpu()) {
                    assertThat(d.allowsModel(node.gpuModel()))
                            .as("%s on a %s node", pod, node.gpuModel())
                            .isTrue();
                }
                assertThat(a.gpuIndices()).hasSize(d.gpuCount()).doesNotHaveDuplicates();
                cpu[a.nodeIndex()] += d.cpuMilli();
                memory[a.nodeIndex()] += d.memoryMib();
                for (int g : a.gpuIndices()) {
                    gpu[a.nodeIndex()][g] += a.milliPerGpu();
                    assertThat(gpu[a.nodeIndex()][g])
                            .as("GPU share on %s", node.name())
                            .isLessThanOrEqualTo(ResourceDemand.WHOLE);
                }
                assertThat(cpu[a.nodeIndex()]).as("CPU on %s", node.name()).isLessThanOrEqualTo(node.cpuMilli());
                assertThat(memory[a.nodeIndex()])
                        .as("memory on %s", node.name())
                        .isLessThanOrEqualTo(node.memoryMib());
                state.allocate(a);
                placements.add(a);
            });
        }
        return placements;
    }

    @Provide
    Arbitrary<TraceFamily> families() {
        Arbitrary<Double> share = Arbitraries.of(0.0, 0.1, 0.2, 0.33, 0.5);
        Arbitrary<Double> fractional = Arbitraries.of(0.2, 0.4, 0.6, 0.8).injectNull(0.3);
        Arbitrary<Double> multi = Arbitraries.of(0.0, 0.1, 0.2).injectNull(0.3);
        Arbitrary<Double> cpuOnly = Arbitraries.of(0.0, 0.15, 0.3).injectNull(0.3);
        return Combinators.combine(share, fractional, multi, cpuOnly, Arbitraries.of(TraceFamily.ModelMix.values()))
                .as(TraceFamily::new);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs().between(0, 1_000);
    }

    @Provide
    Arbitrary<Placement> placements() {
        return Arbitraries.of(
                Placement.policy("quotient", TieBreak.FIXED_ORDER),
                Placement.policy("quotient", TieBreak.RANDOM),
                Placement.service("quotient", Placement.ServiceWorkload.TRACE, TieBreak.FIXED_ORDER));
    }
}

package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * For every policy, random partly used clusters and random gangs: a gang is placed whole (or, if elastic, with at
 * least its minimum) on distinct nodes of one model exactly when enough such nodes fit, its replicas can all be
 * booked together, and a gang that waits books nothing.
 */
class GangPlacementProperties {

    private static final List<String> MODELS = List.of("T4", "A100", "H100");

    @Property(tries = 80)
    void gangsArePlacedAllOrNothingOnDistinctNodesOfOneModel(
            @ForAll("clusters") List<NodeSpec> nodes,
            @ForAll @IntRange(min = 0, max = 40) int usedGpus,
            @ForAll("replicaShapes") ResourceDemand perReplica,
            @ForAll @IntRange(min = 1, max = 6) int replicas,
            @ForAll @IntRange(min = 1, max = 6) int minReplicas,
            @ForAll boolean mixedModels,
            @ForAll("policies") String policyName) {
        ClusterState state = new ClusterState(nodes);
        useSomeGpus(state, usedGpus);
        GangDemand gang = new GangDemand(perReplica, replicas, Math.min(minReplicas, replicas), mixedModels);
        long allocatedBefore = state.allocatedGpuMilli();
        Map<String, Long> fittingByPool = IntStream.range(0, state.nodeCount())
                .filter(n -> state.fits(n, perReplica))
                .boxed()
                .collect(Collectors.groupingBy(
                        n -> mixedModels ? "" : state.node(n).gpuModel(), Collectors.counting()));
        long largestPool =
                fittingByPool.values().stream().mapToLong(Long::longValue).max().orElse(0);

        GangOutcome outcome = new GangPlacer(PlacementPolicies.create(policyName, 3, TargetWorkload.typical()))
                .place(state, gang, PlacementPolicy.NodeFilter.ANY);

        assertThat(state.allocatedGpuMilli()).as("deciding books nothing").isEqualTo(allocatedBefore);
        if (outcome instanceof GangOutcome.Placed placed) {
            List<Allocation> chosen = placed.replicas();
            assertThat((long) chosen.size())
                    .isEqualTo(Math.min(replicas, largestPool))
                    .isGreaterThanOrEqualTo(gang.minReplicas());
            assertThat(chosen.stream().map(Allocation::nodeIndex).distinct().count())
                    .isEqualTo(chosen.size());
            if (!mixedModels) {
                assertThat(chosen.stream()
                                .map(a -> state.node(a.nodeIndex()).gpuModel())
                                .distinct())
                        .hasSize(1);
            }
            chosen.forEach(state::allocate); // throws if the replicas together overcommit anything
        } else {
            assertThat(largestPool).isLessThan(gang.minReplicas());
            GangShortfall shortfall = ((GangOutcome.Waiting) outcome).shortfall();
            assertThat((long) shortfall.nodesThatFit()).isEqualTo(largestPool);
            assertThat(shortfall.nodesNeeded()).isEqualTo(gang.minReplicas());
        }
    }

    private static void useSomeGpus(ClusterState state, int count) {
        for (int i = 0; i < count; i++) {
            int node = (i * 7) % state.nodeCount();
            int gpu = (i * 3) % state.gpuCount(node);
            int take = Math.min(state.gpuFree(node, gpu), i % 2 == 0 ? 1000 : 400);
            if (take > 0) {
                state.allocate(new Allocation(node, new int[] {gpu}, take, 0, 0));
            }
        }
    }

    @Provide
    Arbitrary<String> policies() {
        return Arbitraries.of(PlacementPolicies.names());
    }

    @Provide
    Arbitrary<List<NodeSpec>> clusters() {
        Arbitrary<NodeSpec> node = Combinators.combine(
                        Arbitraries.of(2, 4, 8),
                        Arbitraries.of(MODELS),
                        Arbitraries.strings().alpha().ofLength(6))
                .as((gpus, model, name) -> new NodeSpec(name, 96_000, 512_000, gpus, model, 81_920));
        return node.list().ofMinSize(1).ofMaxSize(16);
    }

    @Provide
    Arbitrary<ResourceDemand> replicaShapes() {
        Function<Set<String>, Arbitrary<ResourceDemand>> shapes = models -> Arbitraries.oneOf(
                Arbitraries.of(1, 2, 4, 8).map(gpus -> ResourceDemand.gpus(8_000, 16_000, gpus, 1000, models)),
                Arbitraries.integers()
                        .between(100, 900)
                        .map(milli -> ResourceDemand.gpus(2_000, 4_000, 2, milli, models)));
        return Arbitraries.oneOf(
                        Arbitraries.just(Set.<String>of()),
                        Arbitraries.of(MODELS).set().ofMinSize(1).ofMaxSize(2))
                .flatMap(shapes);
    }
}

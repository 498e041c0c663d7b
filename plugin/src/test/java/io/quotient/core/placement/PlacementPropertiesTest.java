package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every policy, on random clusters and request streams, only makes placements that really fit. */
class PlacementPropertiesTest {

    private static final List<String> MODELS = List.of("T4", "A100", "V100");

    @Property(tries = 60)
    void placementsFitHonourFiltersAndAreFoundWheneverANodeFits(
            @ForAll("clusters") List<NodeSpec> nodes,
            @ForAll("demands") List<ResourceDemand> demands,
            @ForAll("policies") String policyName) {
        ClusterState state = new ClusterState(nodes);
        PlacementPolicy policy = PlacementPolicies.create(policyName, 11, TargetWorkload.typical());
        PlacementPolicy.NodeFilter evenNodes = (s, n) -> n % 2 == 0;
        for (ResourceDemand demand : demands) {
            Optional<Allocation> placed = policy.place(state, demand, evenNodes);
            boolean anyFits = IntStream.range(0, state.nodeCount()).anyMatch(n -> n % 2 == 0 && state.fits(n, demand));
            assertThat(placed.isPresent()).isEqualTo(anyFits);
            if (placed.isPresent()) {
                Allocation a = placed.get();
                assertThat(a.nodeIndex() % 2).isZero();
                assertThat(demand.allowsModel(state.node(a.nodeIndex()).gpuModel()) || !demand.needsGpu())
                        .isTrue();
                assertThat(a.gpuIndices()).hasSize(demand.gpuCount()).doesNotHaveDuplicates();
                state.allocate(a); // throws if any GPU, CPU or memory would be overcommitted
            }
        }
        for (int n = 0; n < state.nodeCount(); n++) {
            for (int g = 0; g < state.gpuCount(n); g++) {
                assertThat(state.gpuFree(n, g)).isBetween(0, ResourceDemand.WHOLE);
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
                        Arbitraries.of(1, 2, 4, 8),
                        Arbitraries.of(MODELS),
                        Arbitraries.longs().between(8_000, 128_000),
                        Arbitraries.of(8_192L, 16_384L, 81_920L),
                        Arbitraries.strings().alpha().ofLength(6))
                .as((gpus, model, cpu, gpuMemory, name) -> new NodeSpec(name, cpu, 512_000, gpus, model, gpuMemory));
        return node.list().ofMinSize(1).ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<ResourceDemand>> demands() {
        Arbitrary<Set<String>> models = Arbitraries.oneOf(
                Arbitraries.just(Set.of()),
                Arbitraries.of(MODELS).set().ofMinSize(1).ofMaxSize(2));
        Arbitrary<ResourceDemand> fraction = Combinators.combine(
                        Arbitraries.longs().between(0, 16_000),
                        Arbitraries.integers().between(1, 1000),
                        models)
                .as((cpu, milli, m) -> ResourceDemand.gpus(cpu, 4_000, 1, milli, m));
        Arbitrary<ResourceDemand> whole = Combinators.combine(
                        Arbitraries.longs().between(0, 32_000), Arbitraries.of(1, 2, 4, 8), models)
                .as((cpu, gpus, m) -> ResourceDemand.gpus(cpu, 4_000, gpus, 1000, m));
        Arbitrary<ResourceDemand> multiFraction = Combinators.combine(
                        Arbitraries.integers().between(2, 4),
                        Arbitraries.integers().between(100, 900))
                .as((gpus, milli) -> ResourceDemand.gpus(2_000, 4_000, gpus, milli, Set.of()));
        Arbitrary<ResourceDemand> mib = Arbitraries.longs()
                .between(500, 20_000)
                .map(mibs -> new ResourceDemand(1_000, 4_000, 1, 0, mibs, Set.of()));
        Arbitrary<ResourceDemand> cpuOnly =
                Arbitraries.longs().between(100, 64_000).map(cpu -> ResourceDemand.cpuOnly(cpu, 8_000));
        return Arbitraries.oneOf(fraction, whole, multiFraction, mib, cpuOnly)
                .list()
                .ofMinSize(1)
                .ofMaxSize(40);
    }
}

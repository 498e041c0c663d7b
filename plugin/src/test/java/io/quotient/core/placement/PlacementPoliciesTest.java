package io.quotient.core.placement;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.fraction;
import static io.quotient.core.placement.Clusters.node;
import static io.quotient.core.placement.Clusters.use;
import static io.quotient.core.placement.Clusters.whole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Behaviour every policy shares: fits, filters, models, MiB conversion, GPU choice, determinism. */
class PlacementPoliciesTest {

    static List<String> policies() {
        return PlacementPolicies.names();
    }

    private static PlacementPolicy policy(String name) {
        return PlacementPolicies.create(name, 7, TargetWorkload.typical());
    }

    @Test
    void namesListsTheReferencePoliciesAndQuotient() {
        assertThat(PlacementPolicies.names())
                .containsExactly(
                        "random", "leastallocated", "dotprod", "clustering", "packing", "bestfit", "fgd", "quotient");
    }

    @Test
    void unknownNameIsRejectedWithTheKnownOnes() {
        assertThatThrownBy(() -> PlacementPolicies.create("tetris", 1, TargetWorkload.typical()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tetris")
                .hasMessageContaining("bestfit, fgd, quotient");
    }

    @Test
    void namesAreCaseInsensitive() {
        assertThat(PlacementPolicies.create(" FGD ", 1, TargetWorkload.typical())
                        .name())
                .isEqualTo("fgd");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void returnsEmptyWhenNothingFits(String name) {
        ClusterState state = cluster(node("a", 2, "T4"));
        assertThat(policy(name).place(state, whole(4))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fractionGoesToAGpuWithEnoughFreeShare(String name) {
        ClusterState state = cluster(node("a", 4, "T4"));
        use(state, 0, 0, 800);
        use(state, 0, 1, 1000);
        use(state, 0, 2, 500);
        use(state, 0, 3, 700);
        Allocation a = policy(name).place(state, fraction(400)).orElseThrow();
        assertThat(a.gpuIndices()).containsExactly(2);
        assertThat(a.milliPerGpu()).isEqualTo(400);
        state.allocate(a);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void honoursTheNodeFilter(String name) {
        ClusterState state = cluster(node("a", 8, "A100"), node("b", 8, "A100"), node("c", 8, "A100"));
        PlacementPolicy.NodeFilter onlyC = (s, n) -> s.node(n).name().equals("c");
        for (int i = 0; i < 5; i++) {
            Allocation a = policy(name).place(state, whole(1), onlyC).orElseThrow();
            assertThat(a.nodeIndex()).isEqualTo(2);
            state.allocate(a);
        }
    }

    @ParameterizedTest
    @MethodSource("policies")
    void honoursAllowedModels(String name) {
        ClusterState state = cluster(node("t4", 8, "T4"), node("a100", 8, "A100"), node("v100", 8, "V100"));
        ResourceDemand onV100 = ResourceDemand.gpus(1_000, 1_000, 2, 1000, Set.of("V100"));
        assertThat(policy(name).place(state, onV100).orElseThrow().nodeIndex()).isEqualTo(2);
        ResourceDemand onH100 = ResourceDemand.gpus(1_000, 1_000, 1, 500, Set.of("H100"));
        assertThat(policy(name).place(state, onH100)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void convertsMibWithTheChosenNodesGpuMemory(String name) {
        // 12,000 MiB is 3/4 of a 16 GiB GPU but does not fit an 8 GiB one
        ClusterState state = cluster(node("small", 2, "T4", 8_192), node("big", 2, "V100", 16_000));
        ResourceDemand mib = new ResourceDemand(1_000, 1_000, 1, 0, 12_000, Set.of());
        Allocation a = policy(name).place(state, mib).orElseThrow();
        assertThat(a.nodeIndex()).isEqualTo(1);
        assertThat(a.milliPerGpu()).isEqualTo(750);
        state.allocate(a);
        assertThat(state.gpuFree(1, a.gpuIndices()[0])).isEqualTo(250);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void placesTheSameFractionOnSeveralGpusOfOneNode(String name) {
        ClusterState state = cluster(node("a", 4, "A100"));
        use(state, 0, 1, 900);
        ResourceDemand threeHalves = ResourceDemand.gpus(1_000, 1_000, 3, 500, Set.of());
        Allocation a = policy(name).place(state, threeHalves).orElseThrow();
        assertThat(a.gpuIndices()).hasSize(3).doesNotContain(1);
        state.allocate(a);
        assertThat(state.gpuFreeOnNode(0)).isEqualTo(4000 - 900 - 1500);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void placesCpuOnlyDemandsWithoutGpus(String name) {
        ClusterState state = cluster(node("a", 2, "T4"), node("b", 2, "T4"));
        Allocation a =
                policy(name).place(state, ResourceDemand.cpuOnly(60_000, 1_000)).orElseThrow();
        assertThat(a.gpuIndices()).isEmpty();
        state.allocate(a);
        assertThat(policy(name)
                        .place(state, ResourceDemand.cpuOnly(60_000, 1_000))
                        .orElseThrow()
                        .nodeIndex())
                .isNotEqualTo(a.nodeIndex());
    }

    @ParameterizedTest
    @MethodSource("policies")
    void isDeterministicForASeed(String name) {
        List<Integer> first = sequence(name);
        assertThat(sequence(name)).isEqualTo(first);
    }

    private static List<Integer> sequence(String name) {
        ClusterState state = Clusters.uniform(20, 8);
        PlacementPolicy p = PlacementPolicies.create(name, 99, TargetWorkload.typical());
        List<ResourceDemand> demands = List.of(
                fraction(300),
                whole(1),
                fraction(700),
                whole(2),
                fraction(500),
                ResourceDemand.cpuOnly(8_000, 1_000),
                whole(4),
                fraction(250));
        return demands.stream()
                .map(d -> {
                    Optional<Allocation> a = p.place(state, d);
                    a.ifPresent(state::allocate);
                    return a.map(Allocation::nodeIndex).orElse(-1);
                })
                .toList();
    }
}

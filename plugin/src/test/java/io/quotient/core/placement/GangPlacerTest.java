package io.quotient.core.placement;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.node;
import static io.quotient.core.placement.Clusters.use;
import static io.quotient.core.placement.Clusters.whole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy.NodeFilter;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GangPlacerTest {

    private final GangPlacer placer = new GangPlacer(PlacementPolicies.create("bestfit", 7, null));

    @Test
    void placesEveryReplicaOnItsOwnNodeWithAllItsGpus() {
        ClusterState state = Clusters.uniform(6, 8);

        GangOutcome outcome = placer.place(state, GangDemand.of(whole(8), 4), NodeFilter.ANY);

        List<Allocation> replicas = placed(outcome);
        assertThat(replicas).hasSize(4);
        assertThat(replicas).allSatisfy(a -> assertThat(a.gpuIndices()).hasSize(8));
        assertThat(nodes(replicas)).hasSize(4);
    }

    @Test
    void aGangThatDoesNotFitBooksNothingAndSaysWhatIsMissing() {
        ClusterState state = Clusters.uniform(4, 8);
        use(state, 0, 3, 1000);
        use(state, 1, 0, 250);
        long allocatedBefore = state.allocatedGpuMilli();

        GangOutcome outcome = placer.place(state, GangDemand.of(whole(8), 4), NodeFilter.ANY);

        assertThat(outcome).isInstanceOf(GangOutcome.Waiting.class);
        assertThat(((GangOutcome.Waiting) outcome).shortfall().describe())
                .isEqualTo("needs 4 nodes with 8 free A100 GPUs each, 2 have them");
        assertThat(state.allocatedGpuMilli()).isEqualTo(allocatedBefore);
    }

    @Test
    void allReplicasShareOneModelAndTheTightestPoolThatHoldsTheGangIsUsed() {
        ClusterState state = cluster(
                node("a0", 8, "A100"),
                node("a1", 8, "A100"),
                node("a2", 8, "A100"),
                node("h0", 8, "H100"),
                node("h1", 8, "H100"));

        assertThat(models(state, placed(placer.place(state, GangDemand.of(whole(8), 2), NodeFilter.ANY))))
                .containsExactly("H100");
        assertThat(models(state, placed(placer.place(state, GangDemand.of(whole(8), 3), NodeFilter.ANY))))
                .containsExactly("A100");
        GangOutcome five = placer.place(state, GangDemand.of(whole(8), 5), NodeFilter.ANY);
        assertThat(((GangOutcome.Waiting) five).shortfall().describe())
                .isEqualTo("needs 5 nodes with 8 free A100 GPUs each, 3 have them");
    }

    @Test
    void aGangThatMayMixModelsUsesThemAll() {
        ClusterState state = cluster(
                node("a0", 8, "A100"),
                node("a1", 8, "A100"),
                node("a2", 8, "A100"),
                node("h0", 8, "H100"),
                node("h1", 8, "H100"));

        List<Allocation> replicas = placed(placer.place(state, new GangDemand(whole(8), 5, 5, true), NodeFilter.ANY));

        assertThat(models(state, replicas)).containsExactlyInAnyOrder("A100", "H100");
        assertThat(nodes(replicas)).hasSize(5);
    }

    @Test
    void replicasRespectTheAllowedModels() {
        ClusterState state = cluster(node("a0", 8, "A100"), node("h0", 8, "H100"), node("h1", 8, "H100"));
        ResourceDemand onlyA100 = ResourceDemand.gpus(4_000, 8_000, 8, 1000, Set.of("A100"));

        GangOutcome outcome = placer.place(state, GangDemand.of(onlyA100, 2), NodeFilter.ANY);

        assertThat(((GangOutcome.Waiting) outcome).shortfall().describe())
                .isEqualTo("needs 2 nodes with 8 free A100 GPUs each, 1 has them");
    }

    @Test
    void anElasticGangStartsWithWhatFitsAboveItsMinimum() {
        ClusterState state = Clusters.uniform(3, 8);

        assertThat(placed(placer.place(state, new GangDemand(whole(8), 4, 2, false), NodeFilter.ANY)))
                .hasSize(3);
        GangOutcome tooFew = placer.place(state, new GangDemand(whole(8), 6, 4, false), NodeFilter.ANY);
        assertThat(((GangOutcome.Waiting) tooFew).shortfall().describe())
                .isEqualTo("needs 4 nodes with 8 free A100 GPUs each, 3 have them");
    }

    @Test
    void replicasGoWhereThePolicyPacksSoWholeNodesStayWhole() {
        ClusterState state = Clusters.uniform(3, 8);
        for (int gpu = 0; gpu < 6; gpu++) {
            use(state, 0, gpu, 1000);
        }
        for (int gpu = 0; gpu < 4; gpu++) {
            use(state, 2, gpu, 1000);
        }

        List<Allocation> replicas = placed(placer.place(state, GangDemand.of(whole(2), 2), NodeFilter.ANY));

        assertThat(nodes(replicas)).containsExactlyInAnyOrder(0, 2);
    }

    @Test
    void fractionalReplicasTakeTheirShareOnEachOfTheirGpus() {
        ClusterState state = Clusters.uniform(2, 4);
        use(state, 0, 0, 600);
        ResourceDemand halfOfTwo = ResourceDemand.gpus(2_000, 4_000, 2, 500, Set.of());

        List<Allocation> replicas = placed(placer.place(state, GangDemand.of(halfOfTwo, 2), NodeFilter.ANY));

        assertThat(replicas).allSatisfy(a -> {
            assertThat(a.milliPerGpu()).isEqualTo(500);
            assertThat(a.gpuIndices()).hasSize(2);
        });
        Allocation onFirst =
                replicas.stream().filter(a -> a.nodeIndex() == 0).findFirst().orElseThrow();
        assertThat(onFirst.gpuIndices()).doesNotContain(0);
        assertThat(((GangOutcome.Waiting) placer.place(state, GangDemand.of(Clusters.fraction(500), 3), NodeFilter.ANY))
                        .shortfall()
                        .describe())
                .isEqualTo("needs 3 nodes with 1 free A100 GPU of 0.5, 2 have them");
    }

    @Test
    void theFilterLimitsTheNodesAGangMayUse() {
        ClusterState state = Clusters.uniform(4, 8);
        NodeFilter notTheFirstTwo = (s, node) -> node >= 2;

        assertThat(nodes(placed(placer.place(state, GangDemand.of(whole(8), 2), notTheFirstTwo))))
                .containsExactlyInAnyOrder(2, 3);
        assertThat(placer.place(state, GangDemand.of(whole(8), 3), notTheFirstTwo))
                .isInstanceOf(GangOutcome.Waiting.class);
    }

    @Test
    void invalidGangsAreRefused() {
        assertThatThrownBy(() -> GangDemand.of(whole(8), 0)).hasMessageContaining("at least one replica");
        assertThatThrownBy(() -> new GangDemand(whole(8), 2, 3, false))
                .hasMessageContaining("minReplicas must be in 1..2");
    }

    private static List<Allocation> placed(GangOutcome outcome) {
        assertThat(outcome).isInstanceOf(GangOutcome.Placed.class);
        return ((GangOutcome.Placed) outcome).replicas();
    }

    private static Set<Integer> nodes(List<Allocation> replicas) {
        return replicas.stream().map(Allocation::nodeIndex).collect(Collectors.toSet());
    }

    private static Set<String> models(ClusterState state, List<Allocation> replicas) {
        return replicas.stream().map(a -> state.node(a.nodeIndex()).gpuModel()).collect(Collectors.toSet());
    }
}

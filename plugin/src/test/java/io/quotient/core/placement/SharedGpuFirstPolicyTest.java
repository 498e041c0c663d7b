package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SharedGpuFirstPolicyTest {

    private final PlacementPolicy policy = new SharedGpuFirstPolicy(
            PlacementPolicies.create("quotient", 42, TargetWorkload.typical()));

    private static ResourceDemand fraction(int milli) {
        return ResourceDemand.gpus(1_000, 2_000, 1, milli, Set.of());
    }

    private static Allocation placeAndTake(PlacementPolicy policy, ClusterState state, ResourceDemand demand) {
        Allocation allocation = policy.place(state, demand).orElseThrow();
        state.allocate(allocation);
        return allocation;
    }

    @Test
    void threeFractionsShareOneGpuAndTheFourthOpensAnother() {
        ClusterState state = Clusters.cluster(Clusters.node("n0", 4, "A100"), Clusters.node("n1", 4, "A100"));

        Allocation first = placeAndTake(policy, state, fraction(300));
        Allocation second = placeAndTake(policy, state, fraction(300));
        Allocation third = placeAndTake(policy, state, fraction(300));
        Allocation fourth = placeAndTake(policy, state, fraction(300));

        assertThat(second.nodeIndex()).isEqualTo(first.nodeIndex());
        assertThat(second.gpuIndices()).containsExactly(first.gpuIndices());
        assertThat(third.gpuIndices()).containsExactly(first.gpuIndices());
        assertThat(third.nodeIndex()).isEqualTo(first.nodeIndex());
        assertThat(fourth.nodeIndex() != first.nodeIndex() || fourth.gpuIndices()[0] != first.gpuIndices()[0])
                .as("0.1 left on the first GPU cannot take 0.3").isTrue();
    }

    @Test
    void theTightestSharedGpuWinsOverARoomierOne() {
        ClusterState state = Clusters.cluster(Clusters.node("n0", 2, "A100"), Clusters.node("n1", 2, "A100"));
        state.allocate(new Allocation(0, new int[]{1}, 200, 1_000, 2_000)); // n0 GPU 1: 0.8 free
        state.allocate(new Allocation(1, new int[]{0}, 600, 1_000, 2_000)); // n1 GPU 0: 0.4 free

        Allocation placed = policy.place(state, fraction(300)).orElseThrow();

        assertThat(placed.nodeIndex()).isEqualTo(1);
        assertThat(placed.gpuIndices()).containsExactly(0);
    }

    @Test
    void wholeGpusAndFractionsThatFitNoSharedGpuGoToTheWrappedPolicy() {
        ClusterState state = Clusters.cluster(Clusters.node("n0", 2, "A100"));
        state.allocate(new Allocation(0, new int[]{0}, 800, 1_000, 2_000)); // GPU 0: 0.2 free

        Allocation fraction = policy.place(state, fraction(500)).orElseThrow();
        Allocation whole = policy.place(state, Clusters.whole(1)).orElseThrow();

        assertThat(fraction.gpuIndices()).containsExactly(1);
        assertThat(whole.gpuIndices()).containsExactly(1);
    }

    @Test
    void aSharedGpuOnANodeTheFilterRefusesIsNotUsed() {
        ClusterState state = Clusters.cluster(Clusters.node("n0", 2, "A100"), Clusters.node("n1", 2, "A100"));
        state.allocate(new Allocation(0, new int[]{0}, 500, 1_000, 2_000));

        Allocation placed = policy.place(state, fraction(300), (s, node) -> node == 1).orElseThrow();

        assertThat(placed.nodeIndex()).isEqualTo(1);
    }

    @Test
    void multiGpuFractionsTakeSharedGpusOfOneNodeWhenEnoughHaveRoom() {
        ClusterState state = Clusters.cluster(Clusters.node("n0", 4, "A100"), Clusters.node("n1", 4, "A100"));
        state.allocate(new Allocation(1, new int[]{1, 3}, 500, 1_000, 2_000));
        ResourceDemand twoHalves = ResourceDemand.gpus(1_000, 2_000, 2, 500, Set.of());

        Allocation placed = policy.place(state, twoHalves).orElseThrow();

        assertThat(placed.nodeIndex()).isEqualTo(1);
        assertThat(placed.gpuIndices()).containsExactly(1, 3);
    }
}

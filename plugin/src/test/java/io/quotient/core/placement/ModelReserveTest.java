package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link ModelReserve}: which models the jobs free to go anywhere should leave to the constrained ones. */
class ModelReserveTest {

    /** 8 T4 nodes and 8 G2 nodes, 4 GPUs and 64 cores each. */
    private static List<NodeSpec> nodes() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            nodes.add(new NodeSpec("t4-" + i, 64_000, 262_144, 4, "T4", 0));
            nodes.add(new NodeSpec("g2-" + i, 64_000, 262_144, 4, "G2", 0));
        }
        return nodes;
    }

    private static TargetWorkload workload(double t4Only, double g2Only, double anywhere) {
        return new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 1000, Set.of("T4"), t4Only),
                new TargetWorkload.Shape(4_000, 1, 1000, Set.of("G2"), g2Only),
                new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), anywhere)));
    }

    private static double[] reserve(TargetWorkload workload, ClusterState state) {
        ModelReserve reserve = new ModelReserve(workload, state.nodes());
        double[] byNode = new double[state.nodeCount()];
        reserve.reserveByNode(state, byNode);
        return byNode;
    }

    @Test
    void aModelThatConstrainedJobsPressOnIsReservedAndTheOtherIsNot() {
        ClusterState state = new ClusterState(nodes());
        // half the capacity is T4, but 40 % of the demand may only run there and none only on G2
        double[] byNode = reserve(workload(0.4, 0, 0.6), state);
        // pressure on T4: (0.4 + 0.6 / 2) / 0.5 = 1.4, so (1.4 - 1) / 0.6 of its free capacity is reserved
        assertThat(byNode[0]).isCloseTo(0.4 / 0.6, within(1e-9));
        assertThat(byNode[1]).isZero();
    }

    @Test
    void constraintsInTheClustersOwnMixOrNoneReserveNothing() {
        ClusterState state = new ClusterState(nodes());
        for (double r : reserve(workload(0.2, 0.2, 0.6), state)) {
            assertThat(r).isCloseTo(0, within(1e-9));
        }
        assertThat(reserve(workload(0, 0, 1), state)).containsOnly(0.0);
        assertThat(new ModelReserve(workload(0, 0, 1), state.nodes()).steers()).isFalse();
        assertThat(new ModelReserve(workload(1, 0, 0), state.nodes()).steers())
                .as("nobody to steer")
                .isFalse();
    }

    @Test
    void followsTheClusterAsItFills() {
        ClusterState state = new ClusterState(nodes());
        TargetWorkload workload = workload(0.4, 0, 0.6);
        double empty = reserve(workload, state)[0];
        // G2 fills up with jobs that could have gone anywhere: T4 is no longer the model to spare
        for (int n = 1; n < state.nodeCount(); n += 2) {
            state.allocate(new Allocation(n, new int[] {0, 1, 2}, 1000, 4_000, 1_024));
        }
        assertThat(reserve(workload, state)[0]).isLessThan(empty);
    }

    @Test
    void quotientSendsAJobFreeToGoAnywhereAwayFromTheReservedModel() {
        ClusterState state = new ClusterState(nodes());
        PlacementPolicy quotient = PlacementPolicies.create("quotient", 42, workload(0.4, 0, 0.6));
        for (int i = 0; i < 8; i++) {
            Allocation a = quotient.place(state, ResourceDemand.gpus(4_000, 1_024, 1, 1000, Set.of()))
                    .orElseThrow();
            assertThat(state.node(a.nodeIndex()).gpuModel())
                    .as("placement %d", i)
                    .isEqualTo("G2");
            state.allocate(a);
        }
    }
}

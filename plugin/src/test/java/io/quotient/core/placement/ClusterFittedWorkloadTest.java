package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterFittedWorkloadTest {

    private static final TargetWorkload.Shape EIGHT = new TargetWorkload.Shape(64_000, 8, 1000, Set.of("A100"), 0.2);
    private static final TargetWorkload.Shape HALF = new TargetWorkload.Shape(4_000, 1, 500, Set.of(), 0.3);
    private static final TargetWorkload.Shape SMALL = new TargetWorkload.Shape(1_000, 2, 1000, Set.of(), 0.3);
    private static final TargetWorkload.Shape CPU = new TargetWorkload.Shape(32_000, 0, 0, Set.of(), 0.2);
    private static final TargetWorkload BASE = new TargetWorkload(List.of(EIGHT, HALF, SMALL, CPU));

    private static NodeSpec node(String name, long cpuMilli, int gpus) {
        return new NodeSpec(name, cpuMilli, 65_536, gpus, gpus == 0 ? "" : "A100", 81_920);
    }

    @Test
    void scalesTheShapesDownToTheCpuPerGpuOfALeanClusterIgnoringCpuOnlyNodes() {
        // the GPU shapes ask for 14,300 / 2,350 = 6.09 cores per GPU; the GPU nodes have 1.6
        List<NodeSpec> nodes = List.of(
                node("a", 16_000, 10),
                node("b", 16_000, 10),
                node("c", 16_000, 10),
                node("cpu-1", 256_000, 0),
                node("cpu-2", 256_000, 0));

        TargetWorkload fitted = ClusterFittedWorkload.fit(BASE, nodes);

        double scale = 1.6 / (14_300.0 / 2_350);
        // the 8-GPU shape scaled (16,827) is still more than a node has: capped at 16,000
        assertThat(fitted.shapes())
                .extracting(TargetWorkload.Shape::cpuMilli)
                .containsExactly(16_000L, (long) (4_000 * scale), (long) (1_000 * scale), 32_000L);
        assertThat(fitted.shapes())
                .extracting(TargetWorkload.Shape::probability)
                .containsExactlyElementsOf(BASE.shapes().stream()
                        .map(TargetWorkload.Shape::probability)
                        .toList());
        assertThat(fitted.shapes().get(0).allowedModels()).containsExactly("A100");
        assertThat(fitted.shapes()).extracting(TargetWorkload.Shape::gpuCount).containsExactly(8, 1, 2, 0);
        assertThat(ClusterFittedWorkload.fit(BASE, List.of(node("cpu", 256_000, 0))))
                .isSameAs(BASE);
        assertThat(ClusterFittedWorkload.fit(BASE, List.of(node("big", 128_000, 8))))
                .isEqualTo(BASE);
    }

    @Test
    void capsAShapeAtTheMedianNodeWithItsGpuCountOnAClusterWithCpuEnough() {
        // 14.2 cores per GPU, more than the shapes ask for: nothing is scaled; 8 GPUs: a, b, c, lower median 48,000
        List<NodeSpec> nodes =
                List.of(node("a", 48_000, 8), node("b", 48_000, 8), node("c", 256_000, 8), node("d", 2_000, 1));

        assertThat(ClusterFittedWorkload.fit(BASE, nodes).shapes())
                .extracting(TargetWorkload.Shape::cpuMilli)
                .containsExactly(48_000L, 4_000L, 1_000L, 32_000L);
        // a fraction asking for more than its share of a node's CPU per GPU (4,000 for half a GPU of nodes with 2,000
        // per GPU) stays
        assertThat(ClusterFittedWorkload.fit(
                                BASE, List.of(node("a", 16_000, 8), node("b", 16_000, 8), node("c", 256_000, 2)))
                        .shapes())
                .extracting(TargetWorkload.Shape::cpuMilli)
                .containsExactly(16_000L, 4_000L, 1_000L, 32_000L);
        // no node has 8 GPUs: the 8-GPU shape stays as it is
        assertThat(ClusterFittedWorkload.fit(BASE, List.of(node("a", 64_000, 4)))
                        .shapes())
                .extracting(TargetWorkload.Shape::cpuMilli)
                .containsExactly(64_000L, 4_000L, 1_000L, 32_000L);
    }

    @Test
    void isRecomputedOnlyWhenTheNodeShapesChange() {
        ClusterFittedWorkload workloads = new ClusterFittedWorkload(BASE);
        TargetWorkload first =
                workloads.forNodes(List.of(node("a", 16_000, 10), node("b", 128_000, 8), node("c", 16_000, 10)));

        // same shapes, other names and order: the cached instance
        assertThat(workloads.forNodes(List.of(node("x", 128_000, 8), node("y", 16_000, 10), node("z", 16_000, 10))))
                .isSameAs(first);
        // one node more of the small kind: a different cluster, leaner, whose shapes shrink further
        TargetWorkload grown = workloads.forNodes(
                List.of(node("a", 16_000, 10), node("b", 128_000, 8), node("c", 16_000, 10), node("d", 16_000, 10)));
        assertThat(grown.shapes().get(1).cpuMilli())
                .isLessThan(first.shapes().get(1).cpuMilli());
        // the big nodes become the majority: the shapes are no longer capped
        assertThat(workloads.forNodes(List.of(node("a", 16_000, 10), node("b", 128_000, 8), node("c", 128_000, 8))))
                .isEqualTo(BASE);
        assertThat(workloads.base()).isSameAs(BASE);
        assertThatThrownBy(() -> new ClusterFittedWorkload(null)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Why the fitting exists: the same placements with the typical workload (8 cores per GPU), unfitted and fitted,
     * on nodes with 3.2 cores per GPU.
     */
    @Test
    void onFewCoresPerGpuOnlyTheFittedWorkloadKeepsThreeGpuJobsTogether() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(node("n" + i, 32_000, 10));
        }
        assertThat(nodesUsedBySixThreeGpuJobs(TargetWorkload.typical(), nodes)).isEqualTo(3);
        assertThat(nodesUsedBySixThreeGpuJobs(ClusterFittedWorkload.fit(TargetWorkload.typical(), nodes), nodes))
                .isEqualTo(2);
    }

    private static int nodesUsedBySixThreeGpuJobs(TargetWorkload workload, List<NodeSpec> nodes) {
        ClusterState state = new ClusterState(nodes);
        PlacementPolicy policy = PlacementPolicies.create("quotient", 42, workload);
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            var allocation = policy.place(state, ResourceDemand.gpus(1_000, 4_096, 3, 1000, Set.of()))
                    .orElseThrow();
            state.allocate(allocation);
            used.add(allocation.nodeIndex());
        }
        return used.size();
    }
}

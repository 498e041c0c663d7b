package io.quotient.core.placement;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import org.junit.jupiter.api.Test;

/**
 * Which measure a gradient policy scores a demand with (GPU demands one, CPU-only demands the other when given), and
 * how often it asks it.
 */
class GradientPolicyTest {

    /** Counts the CPU taken from nodes of one model as lost, so a gradient policy avoids taking CPU there. */
    private static NodeMeasure cpuTakenOn(String model) {
        return (m, freeCpu, gpuFree, gpuCount) -> m.equals(model) ? 64_000 - freeCpu : 0;
    }

    private static final class TwoMeasurePolicy extends GradientPolicy {
        TwoMeasurePolicy(NodeMeasure measure, NodeMeasure cpuOnlyMeasure) {
            super("two-measures", 1, measure, cpuOnlyMeasure, true);
        }
    }

    @Test
    void scoresCpuOnlyDemandsWithTheirOwnMeasureAndGpuDemandsWithTheOther() {
        ClusterState state = cluster(node("t4", 1, "T4"), node("v100", 1, "V100"));
        PlacementPolicy policy = new TwoMeasurePolicy(cpuTakenOn("V100"), cpuTakenOn("T4"));

        assertThat(policy.place(state, Clusters.fraction(500)).orElseThrow().nodeIndex())
                .as("a GPU demand avoids the V100 node")
                .isZero();
        assertThat(policy.place(state, ResourceDemand.cpuOnly(4_000, 1_024))
                        .orElseThrow()
                        .nodeIndex())
                .as("a CPU-only demand avoids the T4 node")
                .isEqualTo(1);
    }

    @Test
    void aFractionScoresEachDistinctFreeShareOfANodeOnceAndTakesTheFirstGpuWithIt() {
        // free shares 400, 1000, 400, 1000: two distinct ones, so two evaluations of the node after the fraction,
        // plus one of the node as it is (the "before" value)
        ClusterState state = cluster(node("a", 4, "A100"));
        Clusters.use(state, 0, 0, 600);
        Clusters.use(state, 0, 2, 600);
        int[] evaluations = {0};
        // the less idle the better: the fraction goes to a GPU with 400 free, the first of them
        NodeMeasure idle = (m, freeCpu, gpuFree, gpuCount) -> {
            evaluations[0]++;
            long sum = 0;
            for (int i = 0; i < gpuCount; i++) {
                sum += gpuFree[i];
            }
            return sum;
        };
        PlacementPolicy policy = new TwoMeasurePolicy(idle, idle);

        var allocation = policy.place(state, Clusters.fraction(300)).orElseThrow();

        assertThat(allocation.gpuIndices()).containsExactly(0);
        assertThat(evaluations[0]).isEqualTo(3);
    }

    @Test
    void withOneMeasureScoresEveryDemandWithIt() {
        ClusterState state = cluster(node("t4", 1, "T4"), node("v100", 1, "V100"));
        PlacementPolicy policy = new TwoMeasurePolicy(cpuTakenOn("V100"), cpuTakenOn("V100"));

        assertThat(policy.place(state, ResourceDemand.cpuOnly(4_000, 1_024))
                        .orElseThrow()
                        .nodeIndex())
                .isZero();
    }
}

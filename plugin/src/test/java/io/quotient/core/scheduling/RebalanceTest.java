package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Consolidation moves: free whole nodes, only when every moved job has a new place, within the moved share. */
class RebalanceTest {

    private final ClusterRun run = ClusterRun.fourByTen().team("team-a", 40);

    private void put(String name, String node, int firstGpu, int count, boolean preemptible, Duration minRuntime) {
        JobSpec spec = new JobSpec(
                new JobId("team-a", name),
                new GpuRequest.WholeGpus(count),
                1000,
                1024,
                Set.of(),
                0,
                preemptible,
                minRuntime);
        run.placed.put(
                spec.id(),
                new PlacedJob(
                        spec,
                        node,
                        IntStream.range(firstGpu, firstGpu + count).boxed().toList(),
                        1000,
                        QuotaState.IN_QUOTA,
                        run.now.minus(Duration.ofHours(1))));
    }

    private void put(String name, String node, int firstGpu, int count) {
        put(name, node, firstGpu, count, true, Duration.ZERO);
    }

    @Test
    void movesJobsOfLightlyUsedNodesOntoBusyOnes() {
        put("big", "node-1", 0, 8);
        put("one", "node-2", 0, 1);
        put("other", "node-3", 5, 1);
        Plan plan = run.rebalance(1.0);
        assertThat(plan.actionsOf(PlanAction.Move.class)).hasSize(2).allSatisfy(m -> {
            assertThat(m.to().node()).isEqualTo("node-1");
            assertThat(m.to().quotaState()).isEqualTo(m.from().quotaState());
            assertThat(m.to().gpuMilli()).isEqualTo(m.from().gpuMilli());
        });
        assertThat(run.nodesOf("team-a")).containsExactly("node-1");
        assertThat(run.held("team-a")).isEqualTo(10);
    }

    @Test
    void movesNoMoreThanTheAllowedShareOfTheCluster() {
        put("big", "node-1", 0, 8);
        put("one", "node-2", 0, 1);
        put("other", "node-3", 5, 1);
        assertThat(run.rebalance(0.0).actions()).isEmpty();
        Plan plan = run.rebalance(1.0 / 40);
        assertThat(plan.actionsOf(PlanAction.Move.class)).hasSize(1);
    }

    @Test
    void leavesANodeAloneWhenOneOfItsJobsMayNotMove() {
        put("big", "node-1", 0, 9);
        put("notebook", "node-2", 0, 1, false, Duration.ZERO);
        put("train", "node-2", 1, 1);
        put("young", "node-3", 0, 2, true, Duration.ofHours(2));
        assertThat(run.rebalance(1.0).actions()).isEmpty();
    }

    @Test
    void drainsAFullerNodeWhenThatFreesIt() {
        put("seven", "node-1", 0, 7);
        put("notebook", "node-2", 0, 1, false, Duration.ZERO);
        put("train", "node-2", 1, 1);
        Plan plan = run.rebalance(1.0);
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .singleElement()
                .satisfies(m -> assertThat(m.to().node()).isEqualTo("node-2"));
        assertThat(run.nodesOf("team-a")).containsExactly("node-2");
    }

    @Test
    void movesNothingWhenSomeJobWouldFindNoPlace() {
        put("five", "node-1", 0, 5);
        put("six", "node-2", 0, 6);
        assertThat(run.rebalance(1.0).actions()).isEmpty();
        assertThat(run.placement("team-a", "five").node()).isEqualTo("node-1");
    }

    @Test
    void mergesFractionsSoThatWholeGpusFreeUp() {
        put("busy", "node-1", 0, 6);
        fraction("quarter", "node-1", 6, 250);
        fraction("half", "node-1", 7, 500);
        fraction("tenth", "node-1", 8, 100);
        Plan plan = run.rebalance(1.0);
        // the 0.1 and the 0.25 join the 0.5: GPUs 6 and 8 become whole again
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .extracting(m -> m.job().name())
                .containsExactlyInAnyOrder("tenth", "quarter");
        assertThat(run.placed.values().stream()
                        .filter(j -> j.milliPerGpu() < 1000)
                        .map(j -> j.node() + "/" + j.gpuIndices()))
                .containsOnly("node-1/[7]");
    }

    @Test
    void leavesAFractionWhereItIsWhenNoSharedGpuHasRoom() {
        put("busy", "node-1", 0, 6);
        fraction("big-a", "node-1", 6, 700);
        fraction("big-b", "node-1", 7, 600);
        assertThat(run.rebalance(1.0).actions()).isEmpty();
    }

    private void fraction(String name, String node, int gpu, int milli) {
        JobSpec spec = new JobSpec(
                new JobId("team-a", name),
                new GpuRequest.Fraction(milli, milli, 1),
                100,
                100,
                Set.of(),
                0,
                true,
                Duration.ZERO);
        run.placed.put(
                spec.id(),
                new PlacedJob(
                        spec, node, List.of(gpu), milli, QuotaState.IN_QUOTA, run.now.minus(Duration.ofHours(1))));
    }

    @Test
    void refusesAShareOutsideZeroToOne() {
        assertThatThrownBy(() -> run.rebalance(1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxMovedShare");
    }
}

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.TargetWorkload;
import org.junit.jupiter.api.Test;

class QuotaSchedulerTest {

    @Test
    void anUnknownPolicyIsRefusedWithTheKnownNames() {
        assertThatThrownBy(() -> new QuotaScheduler("tetris", 42, TargetWorkload.typical()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tetris")
                .hasMessageContaining("quotient")
                .hasMessageContaining("fgd");
    }

    @Test
    void thePlanDependsOnlyOnTheSnapshot() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20).team("team-b", 20);
        for (int i = 0; i < 7; i++) {
            run.deploy(ClusterRun.fraction("team-a", "f" + i, 300));
            run.deploy(ClusterRun.job("team-b", "w" + i, 3));
        }
        SchedulingSnapshot snapshot = run.snapshot();
        JobSpec next = ClusterRun.job("team-a", "next", 2);
        assertThat(run.scheduler.schedule(snapshot, next)).isEqualTo(run.scheduler.schedule(snapshot, next));
        assertThat(run.scheduler.rebalance(snapshot, 0.5)).isEqualTo(run.scheduler.rebalance(snapshot, 0.5));
    }

    @Test
    void everyPolicyServesTheScheduler() {
        for (String policy : PlacementPolicies.names()) {
            ClusterRun run = new ClusterRun(
                            new QuotaScheduler(policy, 7, TargetWorkload.typical()), ClusterRun.nodes(2, 8))
                    .team("team-a", 16);
            run.deploy(ClusterRun.job("team-a", "whole", 3));
            run.deploy(ClusterRun.fraction("team-a", "part", 500));
            assertThat(run.placed).as(policy).hasSize(2);
        }
    }
}

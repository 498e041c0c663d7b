package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Elastic gangs (issue 12: "placed with at least min, grown when capacity frees"): a gang started with fewer replicas
 * than it asked for grows when nodes free up, never taking what a waiting job needs beyond its team's guarantee.
 */
class ElasticGrowthTest {

    /** team-a's elastic 4 x 8 gang started on the two free nodes of four while team-b's two jobs held the others. */
    private static ClusterRun startedShort(int guaranteeA) {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", guaranteeA)
                .team("team-b", 16);
        run.deploy(ClusterRun.job("team-b", "b-1", 8));
        run.deploy(ClusterRun.job("team-b", "b-2", 8));
        run.deploy(ClusterRun.gang("team-a", "elastic", 4, 2, 8));
        assertThat(run.placement("team-a", "elastic").replicas())
                .as("started with its minimum")
                .hasSize(2);
        return run;
    }

    private static Set<String> nodes(PlacedJob job) {
        return Set.copyOf(job.replicas().stream().map(PlacedJob.Replica::node).toList());
    }

    @Test
    void growsToEveryReplicaWhenNodesFree() {
        ClusterRun run = startedShort(32);
        assertThat(run.grow().actions()).as("nothing freed yet").isEmpty();

        run.finish("team-b", "b-1");
        Plan grown = run.grow();

        assertThat(grown.actionsOf(PlanAction.Grow.class)).singleElement().satisfies(g -> {
            assertThat(g.from().replicas()).hasSize(2);
            assertThat(g.to().replicas()).hasSize(3);
        });
        run.finish("team-b", "b-2");
        run.grow();
        PlacedJob whole = run.placement("team-a", "elastic");
        assertThat(whole.replicas()).hasSize(4);
        assertThat(nodes(whole)).hasSize(4).as("one replica per node");
        assertThat(whole.quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(run.grow().actions()).as("a whole gang does not grow").isEmpty();
        run.checkNothingOverAllocated();
    }

    @Test
    void growsBeyondItsGuaranteeOnlyWhileNoJobWaits() {
        ClusterRun run = startedShort(16);
        run.finish("team-b", "b-1");
        run.deploy(ClusterRun.gang("team-b", "needs-two-nodes", 2, 2, 8)); // one node is free: it waits

        assertThat(run.grow().actions())
                .as("a job waits: growth beyond the guarantee would take the node it needs")
                .isEmpty();

        run.finish("team-b", "b-2");
        run.requeue();
        assertThat(run.isPlaced("team-b", "needs-two-nodes"))
                .as("the queue is served first")
                .isTrue();
        assertThat(run.grow().actions()).as("no node left").isEmpty();

        run.finish("team-b", "needs-two-nodes");
        Plan borrowed = run.grow();
        assertThat(borrowed.actionsOf(PlanAction.Grow.class))
                .as("nothing waits: it may borrow")
                .hasSize(1);
        assertThat(run.placement("team-a", "elastic").replicas()).hasSize(4);
        assertThat(run.placement("team-a", "elastic").quotaState())
                .as("borrowed: reclaimable like any borrower")
                .isEqualTo(QuotaState.OVER_QUOTA);
    }

    @Test
    void respectsTheTeamsMaximumAndTheMinimumRuntime() {
        ClusterRun capped = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team(new Team("team-a", 16_000, 24_000, 1.0, 0))
                .team("team-b", 16);
        capped.deploy(ClusterRun.job("team-b", "b-1", 8));
        capped.deploy(ClusterRun.job("team-b", "b-2", 8));
        capped.deploy(ClusterRun.gang("team-a", "elastic", 4, 2, 8));
        capped.finish("team-b", "b-1");
        capped.finish("team-b", "b-2");
        capped.grow();
        assertThat(capped.placement("team-a", "elastic").replicas())
                .as("max 24 GPUs: three replicas of 8")
                .hasSize(3);

        ClusterRun young = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", 32)
                .team("team-b", 16);
        young.deploy(ClusterRun.job("team-b", "b-1", 8));
        young.deploy(ClusterRun.job("team-b", "b-2", 8));
        JobSpec checkpointing = ClusterRun.gang("team-a", "elastic", 4, 2, 8);
        young.deploy(new JobSpec(
                checkpointing.id(),
                checkpointing.gpu(),
                1000,
                1024,
                Set.of(),
                0,
                true,
                Duration.ofMinutes(30),
                checkpointing.gang()));
        young.finish("team-b", "b-1");
        assertThat(young.grow().actions())
                .as("growing restarts it: not before its minimum runtime")
                .isEmpty();
        young.advance(Duration.ofMinutes(31));
        assertThat(young.grow().actionsOf(PlanAction.Grow.class)).hasSize(1);
    }

    @Test
    void aGangThatRunsWholeOrAPlainJobNeverGrows() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8)).team("team-a", 32);
        run.deploy(ClusterRun.gang("team-a", "rigid", 2, 2, 8));
        run.deploy(ClusterRun.job("team-a", "plain", 4));
        assertThat(run.grow().actions()).isEmpty();
        assertThat(List.of(run.placement("team-a", "rigid").replicas().size())).containsExactly(2);
    }
}

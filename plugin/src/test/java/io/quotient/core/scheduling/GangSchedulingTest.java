package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Gangs (issue 12): one unit for placement, quotas, eviction and re-queue. */
class GangSchedulingTest {

    private static Set<String> nodesOf(PlacedJob job) {
        return Set.copyOf(job.replicas().stream().map(PlacedJob.Replica::node).toList());
    }

    @Test
    void aGangIsPlacedWholeOneReplicaPerNodeInOneDecision() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(6, 8)).team("a", 48);
        Plan plan = run.deploy(ClusterRun.gang("a", "train", 4, 4, 8));
        assertThat(plan.actionsOf(PlanAction.Place.class)).hasSize(1);
        PlacedJob job = run.placement("a", "train");
        assertThat(job.replicas())
                .hasSize(4)
                .allSatisfy(r -> assertThat(r.gpuIndices()).hasSize(8));
        assertThat(nodesOf(job)).hasSize(4);
        assertThat(run.held("a")).isEqualTo(32.0);
    }

    @Test
    void aGangThatDoesNotFitHoldsNothingSaysWhatIsMissingAndRunsWhenCapacityFrees() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8)).team("a", 32);
        run.deploy(ClusterRun.job("a", "small-1", 2));
        run.deploy(ClusterRun.job("a", "small-2", 2));
        run.deploy(ClusterRun.gang("a", "train", 4, 4, 8));
        assertThat(run.isPlaced("a", "train")).isFalse();
        assertThat(run.held("a")).isEqualTo(4.0);
        int freeNodes = 4 - run.nodesOf("a").size();
        assertThat(run.reason("a", "train"))
                .contains("needs 4 nodes with 8 free " + ClusterRun.MODEL + " GPUs each, " + freeNodes + " have them");
        run.finish("a", "small-1");
        run.finish("a", "small-2");
        run.requeue();
        assertThat(run.isPlaced("a", "train")).isTrue();
        assertThat(nodesOf(run.placement("a", "train"))).hasSize(4);
    }

    @Test
    void quotasCountTheWholeGang() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team(new Team("a", 8_000, 31_999, 1, 0));
        run.deploy(ClusterRun.gang("a", "train", 4, 4, 8));
        assertThat(run.isPlaced("a", "train")).isFalse();
        assertThat(run.held("a")).isZero();
        assertThat(run.reason("a", "train")).contains("max");
    }

    @Test
    void aGangOfATeamAtItsMaximumTakesItsLowerPriorityJobsPlaceForAllReplicasNeverAsOneReplicaAlone() {
        // the gang would take the team beyond its maximum; the priority rule may free the team's own lower-priority
        // job. Once only a single-node search ran there and the gang took that job's place as one replica of four
        // GPUs; now the gang's search frees room for both replicas, and the team ends at its maximum
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(2, 4))
                .team(new Team("a", 8_000, 8_000, 1, 0));
        run.deploy(ClusterRun.job("a", "low", 4));
        run.advance(Duration.ofHours(1));
        JobSpec plain = ClusterRun.gang("a", "train", 2, 2, 4);
        JobSpec urgent = new JobSpec(
                plain.id(),
                plain.gpu(),
                plain.cpuMilli(),
                plain.memoryMib(),
                plain.allowedModels(),
                5,
                true,
                Duration.ZERO,
                plain.gang());
        Plan plan = run.deploy(urgent);
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactly("low");
        assertThat(plan.actionsOf(PlanAction.Place.class)).singleElement().satisfies(place -> {
            assertThat(place.placement().spec().id().name()).isEqualTo("train");
            assertThat(place.placement().otherReplicas())
                    .as("both replicas placed")
                    .hasSize(1);
        });
        assertThat(run.held("a")).isEqualTo(8.0);
    }

    @Test
    void reclaimEvictsTheWholeGangAndRequeuesIt() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("a", 0)
                .team("b", 32);
        run.deploy(ClusterRun.gang("a", "train", 4, 4, 8));
        assertThat(run.held("a")).isEqualTo(32.0);
        run.advance(Duration.ofHours(1));
        Plan plan = run.deploy(ClusterRun.job("b", "claim", 8));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(PlanAction.Evict::job)
                .containsExactly(new JobId("a", "train"));
        assertThat(run.isPlaced("b", "claim")).isTrue();
        assertThat(run.held("a")).isZero();
        assertThat(run.pending).containsKey(new JobId("a", "train"));
        run.requeue();
        assertThat(run.isPlaced("a", "train")).isFalse();
        assertThat(run.reason("a", "train")).contains("needs 4 nodes with 8 free");
        run.finish("b", "claim");
        run.requeue();
        assertThat(run.isPlaced("a", "train")).isTrue();
    }

    @Test
    void anElasticGangStartsWithWhatFitsAboveItsMinimum() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(3, 8)).team("a", 32);
        run.deploy(ClusterRun.gang("a", "elastic", 4, 2, 8));
        assertThat(run.placement("a", "elastic").replicas()).hasSize(3);
        assertThat(run.held("a")).isEqualTo(24.0);
    }

    @Test
    void aGangIsNeverMovedByRebalancing() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8)).team("a", 32);
        run.deploy(ClusterRun.gang("a", "train", 2, 2, 3));
        Plan plan = run.rebalance(1.0);
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .extracting(PlanAction.Move::job)
                .doesNotContain(new JobId("a", "train"));
        assertThat(List.copyOf(run.placement("a", "train").replicas())).hasSize(2);
    }
}

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three problems Quotient exists for (issue 2), with their numbers: 4 nodes × 10 GPUs, teams A and B
 * guaranteed 20 GPUs each.
 */
class ProblemStatementTest {

    private final ClusterRun run = ClusterRun.fourByTen().team("team-a", 20).team("team-b", 20);

    @Test
    void teamBelowItsGuaranteeTakesBackWhatTheOtherTeamBorrowed() {
        // (1) team A holds 30 (20 in quota, 10 borrowed), team B asks for its 20
        for (int i = 1; i <= 6; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 5));
        }
        assertThat(run.held("team-a")).isEqualTo(30);
        assertThat(run.held("team-a", QuotaState.OVER_QUOTA)).isEqualTo(10);

        Plan plan = run.deployAll(
                ClusterRun.job("team-b", "b1", 5),
                ClusterRun.job("team-b", "b2", 5),
                ClusterRun.job("team-b", "b3", 5),
                ClusterRun.job("team-b", "b4", 5));

        assertThat(run.held("team-b")).isEqualTo(20);
        assertThat(run.held("team-b", QuotaState.IN_QUOTA)).isEqualTo(20);
        assertThat(run.held("team-a")).isEqualTo(20);
        // which two of A's 5-GPU jobs are borrowed is decided by what A holds now, not by arrival: any two
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .hasSize(2)
                .allSatisfy(e -> assertThat(e.job().team()).isEqualTo("team-a"));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .allSatisfy(e -> assertThat(e.reason()).startsWith("Preempted by team-b reclaiming its guarantee"));
    }

    @Test
    void packedJobsLeaveAWholeNodeForALargeJob() {
        // (2) team A deploys six 3-GPU jobs, then team B one 8-GPU job
        for (int i = 1; i <= 6; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 3));
        }
        assertThat(run.nodesOf("team-a")).hasSize(2);

        Plan plan = run.deploy(ClusterRun.job("team-b", "big", 8));

        assertThat(run.isPlaced("team-b", "big")).isTrue();
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.held("team-a")).isEqualTo(18);
    }

    @Test
    void idleGuaranteeIsLentAndItsOwnerStillGetsItsShare() {
        // (3) team B idle, team A asks for 30: gets 30 (10 borrowed)
        for (int i = 1; i <= 6; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 5));
        }
        assertThat(run.held("team-a")).isEqualTo(30);
        assertThat(run.held("team-a", QuotaState.OVER_QUOTA)).isEqualTo(10);

        // B then asks for 10: it runs within its guarantee; the 10 idle GPUs suffice, so nothing is preempted
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));

        assertThat(run.placement("team-b", "b1").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.held("team-a")).isEqualTo(30);
    }

    @Test
    void borrowedJobsArePreemptedWhenTheOwnerNeedsItsGuaranteeBack() {
        // (3) with no idle GPU left: team A borrowed all of B's guarantee (40 held, 20 borrowed)
        for (int i = 1; i <= 8; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 5));
        }
        assertThat(run.held("team-a")).isEqualTo(40);
        List<JobId> inQuotaBefore = run.placed.values().stream()
                .filter(j -> j.quotaState() == QuotaState.IN_QUOTA)
                .map(PlacedJob::id)
                .toList();
        assertThat(inQuotaBefore).hasSize(4);

        // B asks for 10: exactly 10 of A's borrowed GPUs are preempted and B runs
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));

        assertThat(run.placement("team-b", "b1").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        List<PlanAction.Evict> evicted = plan.actionsOf(PlanAction.Evict.class);
        assertThat(evicted).hasSize(2).allSatisfy(e -> assertThat(inQuotaBefore).doesNotContain(e.job()));
        assertThat(run.held("team-a")).isEqualTo(30);
        assertThat(inQuotaBefore).allSatisfy(id -> assertThat(run.placed).containsKey(id));
        assertThat(plan.actions().get(plan.actions().size() - 1)).isInstanceOf(PlanAction.Place.class);
        assertThat(run.pending)
                .containsKeys(evicted.get(0).job(), evicted.get(1).job());
    }
}

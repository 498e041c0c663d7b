package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.Scenario.gpus;
import static io.quotient.core.scheduling.Scenario.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Department;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Quota scenarios as tables (nodes, teams, running jobs with placements, pending jobs → running and pending sets),
 * after KAI-Scheduler's reclaim and fairness tests and Kueue's preemption tests, and the four examples of issue 13.
 */
class QuotaScenariosTest {

    @Test
    void example1ReclaimTakesTheLeastAndKeepsTheVictimAtItsGuarantee() {
        // A (guarantee 4) runs 5, 2 and 1 GPUs on a 9-GPU node; B asks for 3
        Scenario s = Scenario.nodes(9)
                .team("team-a", 4, 1)
                .team("team-b", 5, 1)
                .running("team-a", "a5", "node-0", 0, gpus(0, 5))
                .running("team-a", "a2", "node-0", 0, gpus(5, 2))
                .running("team-a", "a1", "node-0", 0, gpus(7, 1))
                .deploy(job("team-b", "b3", 3, 0));
        assertThat(s.running()).containsExactly("team-a/a1", "team-a/a5", "team-b/b3");
        assertThat(s.pending()).containsExactly("team-a/a2");
        assertThat(s.run.held("team-a")).isGreaterThanOrEqualTo(4);
        assertThat(s.run.held("team-a", QuotaState.IN_QUOTA)).isEqualTo(5);
    }

    @Test
    void example1OnAFullNodeEvictsTheTwoSmallJobsNotTheLargeOne() {
        Scenario s = Scenario.nodes(8)
                .team("team-a", 4, 1)
                .team("team-b", 4, 1)
                .running("team-a", "a5", "node-0", 0, gpus(0, 5))
                .running("team-a", "a2", "node-0", 0, gpus(5, 2))
                .running("team-a", "a1", "node-0", 0, gpus(7, 1))
                .deploy(job("team-b", "b3", 3, 0));
        assertThat(s.running()).containsExactly("team-a/a5", "team-b/b3");
        assertThat(s.pending()).containsExactly("team-a/a1", "team-a/a2");
    }

    @Test
    void example2ReclaimMovesAJobAndEvictsOnlyWhatTheGuaranteeAllows() {
        // node0: A's 2-GPU job; node1: A's 2- and 1-GPU jobs; A holds 5 of 4, B 0 of 4 asks for 4
        Scenario s = Scenario.nodes(4, 4)
                .team("team-a", 4, 1)
                .team("team-b", 4, 1)
                .running("team-a", "x", "node-0", 0, gpus(0, 2))
                .running("team-a", "y", "node-1", 0, gpus(0, 2))
                .running("team-a", "z", "node-1", 0, gpus(2, 1))
                .deploy(job("team-b", "b4", 4, 0));
        Plan plan = s.run.plans.get(s.run.plans.size() - 1);
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .singleElement()
                .satisfies(m -> assertThat(m.to().node()).isEqualTo("node-0"));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactly("z");
        assertThat(s.run.placement("team-b", "b4").node()).isEqualTo("node-1");
        assertThat(s.run.held("team-a")).isEqualTo(4);
    }

    @Test
    void aJobWaitingOnlyForFragmentationIsPlacedByMovingOthers() {
        // 2 GPUs free, but one on each node; a borrowing team's 2-GPU job gets them by one move, no eviction
        Scenario s = Scenario.nodes(4, 4)
                .team("team-a", 0, 1)
                .running("team-a", "p", "node-0", 0, gpus(0, 3))
                .running("team-a", "q", "node-1", 0, gpus(0, 2))
                .running("team-a", "r", "node-1", 0, gpus(2, 1))
                .deploy(job("team-a", "two", 2, 0));
        Plan plan = s.run.plans.get(s.run.plans.size() - 1);
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(plan.actionsOf(PlanAction.Move.class)).hasSize(1);
        assertThat(s.running()).contains("team-a/two");
    }

    @Test
    void example3BorrowedGpusAreRebalancedByWeightOneToTwo() {
        Scenario s = Scenario.nodes(4, 4, 4)
                .team("light", 0, 1)
                .team("heavy", 0, 2)
                .deployMany("light", "l", 12)
                .deployMany("heavy", "h", 12);
        s.settle(5);
        assertThat(s.run.held("light")).isEqualTo(4);
        assertThat(s.run.held("heavy")).isEqualTo(8);
        assertThat(s.settle(5)).as("no evictions once the shares are reached").isZero();
    }

    @Test
    void fairnessByWeightOneToOneToTwo() {
        Scenario s = Scenario.nodes(4, 4, 4, 4)
                .team("a", 0, 1)
                .team("b", 0, 1)
                .team("c", 0, 2)
                .deployMany("a", "a", 16)
                .deployMany("b", "b", 16)
                .deployMany("c", "c", 16);
        s.settle(5);
        assertThat(s.run.held("a")).isEqualTo(4);
        assertThat(s.run.held("b")).isEqualTo(4);
        assertThat(s.run.held("c")).isEqualTo(8);
        assertThat(s.settle(5)).isZero();
    }

    @Test
    void guaranteesComeBeforeWeightedShares() {
        // A guaranteed 6 of 12, weights 1:1 for the other 6: B (no guarantee) ends with 3 of the pool, A with 9
        Scenario s = Scenario.nodes(4, 4, 4)
                .team("a", 6, 1)
                .team("b", 0, 1)
                .deployMany("b", "b", 12)
                .deployMany("a", "a", 12);
        s.settle(5);
        assertThat(s.run.held("a")).isEqualTo(9);
        assertThat(s.run.held("b")).isEqualTo(3);
    }

    @Test
    void aTeamThatOptsOutOfFairShareReclaimKeepsWhatItBorrowed() {
        Scenario s = Scenario.nodes(4, 4, 4)
                .team(new Team("light", 0, Team.UNLIMITED, 1, 0).withFairShareReclaim(false))
                .team("heavy", 0, 2)
                .deployMany("light", "l", 12)
                .deployMany("heavy", "h", 12);
        s.settle(3);
        assertThat(s.run.held("light")).isEqualTo(12);
        assertThat(s.run.reason("heavy", "h0")).contains("borrows only idle GPUs (fair share 8 GPUs)");
    }

    @Test
    void example4AnUrgentJobPreemptsItsOwnTeamsLowerPriorityJobs() {
        Scenario s = Scenario.nodes(4)
                .team("team-a", 4, 1)
                .running("team-a", "low-0", "node-0", 0, 0)
                .running("team-a", "low-1", "node-0", 0, 1)
                .running("team-a", "mid", "node-0", 5, 2)
                .running("team-a", "low-3", "node-0", 0, 3)
                .deploy(job("team-a", "urgent", 2, 10));
        assertThat(s.running()).contains("team-a/urgent", "team-a/mid");
        assertThat(s.pending()).hasSize(2).allSatisfy(p -> assertThat(p).startsWith("team-a/low-"));
        assertThat(s.run.reason("team-a", "low-0") + s.run.reason("team-a", "low-1") + s.run.reason("team-a", "low-3"))
                .contains("Preempted by team-a/urgent (priority 10) of the same team");
    }

    @Test
    void withinTeamPreemptionCanBeTurnedOff() {
        Scenario s = Scenario.nodes(4)
                .team(new Team("team-a", 4000, Team.UNLIMITED, 1, 0).withPreemptWithinTeam(WithinTeamPreemption.NEVER))
                .running("team-a", "low", "node-0", 0, gpus(0, 4))
                .deploy(job("team-a", "urgent", 2, 10));
        assertThat(s.pending()).containsExactly("team-a/urgent");
        assertThat(s.running()).containsExactly("team-a/low");
    }

    @Test
    void priorityAloneNeverPreemptsAnotherTeamsInQuotaWork() {
        Scenario s = Scenario.nodes(4)
                .team("team-a", 4, 1)
                .team("team-b", 0, 1)
                .running("team-a", "low", "node-0", -5, gpus(0, 4))
                .deploy(job("team-b", "urgent", 1, 100));
        assertThat(s.pending()).containsExactly("team-b/urgent");
        assertThat(s.run.reason("team-b", "urgent")).startsWith("team-b has used its guarantee (0 of 0 GPUs)");
    }

    @Test
    void aJobLargerThanItsGuaranteeSaysSoInsteadOfGuaranteeUsed() {
        Scenario s = Scenario.nodes(4)
                .team("team-a", 2, 1)
                .team("team-b", 2, 1)
                .running("team-a", "a", "node-0", 0, gpus(0, 4))
                .deploy(job("team-b", "big", 3, 0));
        assertThat(s.pending()).containsExactly("team-b/big");
        assertThat(s.run.reason("team-b", "big"))
                .startsWith("this job needs 3 GPUs, more than team-b's guarantee"
                        + " leaves (holds 0 of 2 guaranteed GPUs) and borrows only idle GPUs")
                .doesNotContain("has used");
    }

    @Test
    void fractionalReclaimFreesTheSmallestShareOnOneGpu() {
        Scenario s = Scenario.nodes(2)
                .team("team-a", 0, 1)
                .team("team-b", 1, 1)
                .runningFraction("team-a", "f50", "node-0", 500, 0)
                .runningFraction("team-a", "g50", "node-0", 500, 0)
                .runningFraction("team-a", "f25", "node-0", 250, 1)
                .runningFraction("team-a", "h50", "node-0", 500, 1)
                .deploy(Scenario.spec("team-b", "half", new GpuRequest.Fraction(500, 500, 1), 0));
        assertThat(s.pending()).containsExactly("team-a/f25");
        assertThat(s.run.placement("team-b", "half").gpuIndices()).containsExactly(1);
    }

    @Test
    void reclaimChoosesAmongAllTeamsAboveTheirGuaranteeTheLeastWork() {
        // A is above its guarantee by 1, C by 3: the 2-GPU job can only come from C
        Scenario s = Scenario.nodes(4, 4)
                .team("a", 3, 1)
                .team("b", 2, 1)
                .team("c", 1, 1)
                .running("a", "a2", "node-0", 0, gpus(0, 2))
                .running("a", "a1", "node-0", 0, gpus(2, 1))
                .running("a", "a1b", "node-0", 0, gpus(3, 1))
                .running("c", "c2", "node-1", 0, gpus(0, 2))
                .running("c", "c1", "node-1", 0, gpus(2, 1))
                .running("c", "c1b", "node-1", 0, gpus(3, 1))
                .deploy(job("b", "b2", 2, 0));
        assertThat(s.running()).contains("b/b2", "a/a2", "a/a1", "a/a1b");
        assertThat(s.run.held("c")).isEqualTo(2);
    }

    @Test
    void departmentsLendInsideFirstAndReclaimRespectsTheOtherDepartmentsGuarantee() {
        Department d1 = new Department("d1", 6000, Team.UNLIMITED, 1);
        Department d2 = new Department("d2", 6000, Team.UNLIMITED, 1);
        Scenario s = Scenario.nodes(4, 4, 4)
                .team(new Team("a", 0, Team.UNLIMITED, 1, 0).withDepartment(d1))
                .team(new Team("b", 6000, Team.UNLIMITED, 1, 0).withDepartment(d1))
                .team(new Team("c", 2000, Team.UNLIMITED, 1, 0).withDepartment(d2))
                .team(new Team("e", 4000, Team.UNLIMITED, 1, 0).withDepartment(d2))
                .running("a", "a0", "node-0", 0, gpus(0, 4))
                .running("a", "a1", "node-1", 0, gpus(0, 2))
                .running("c", "c0", "node-1", 0, gpus(2, 2))
                .running("c", "c1", "node-2", 0, gpus(0, 4))
                .deploy(job("b", "b4", 4, 0));
        // c is 4 above its team guarantee, but department d2 holds only its own guarantee: b takes from a
        assertThat(s.running()).contains("b/b4", "c/c0", "c/c1");
        assertThat(s.run.held("a")).isEqualTo(2);
    }

    @Test
    void aDepartmentsMaximumBoundsItsTeamsTogether() {
        Department d = new Department("d", 0, 3000, 1);
        Scenario s = Scenario.nodes(8)
                .team(new Team("a", 0, Team.UNLIMITED, 1, 0).withDepartment(d))
                .team(new Team("b", 0, Team.UNLIMITED, 1, 0).withDepartment(d))
                .deploy(job("a", "a2", 2, 0), job("b", "b2", 2, 0));
        assertThat(s.pending()).containsExactly("b/b2");
        assertThat(s.run.reason("b", "b2"))
                .isEqualTo("b's department d is at its maxGpus 3 (its teams hold 2 GPUs," + " this job needs 2)");
    }

    @Test
    void inQuotaStatesFollowWhatTheTeamHoldsNow() {
        Scenario s = Scenario.nodes(8)
                .team("a", 4, 1)
                .running("a", "a5", "node-0", 0, gpus(0, 5))
                .running("a", "a2", "node-0", 0, gpus(5, 2))
                .running("a", "a1", "node-0", 0, gpus(7, 1));
        assertThat(s.run.held("a", QuotaState.IN_QUOTA)).isEqualTo(5);
        s.run.finish("a", "a5");
        assertThat(s.run.held("a", QuotaState.IN_QUOTA)).isEqualTo(3);
        assertThat(Set.of(s.run.held("a", QuotaState.OVER_QUOTA))).containsExactly(0.0);
    }
}

package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.Scenario.gpus;
import static io.quotient.core.scheduling.Scenario.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each step of the {@link ReclaimLadder} on a small cluster where it, and no step before it, makes room: the
 * eviction reasons (or, for consolidation, the moves) name the rule that fired. The scenario tables (KAI, Kueue,
 * Volcano) show the rules together; these show them one at a time.
 */
class ReclaimLadderTest {

    private static List<String> evictionReasons(Scenario s) {
        return s.run.plans.stream()
                .flatMap(p -> p.actionsOf(PlanAction.Evict.class).stream())
                .map(PlanAction.Evict::reason)
                .toList();
    }

    private static long moves(Scenario s) {
        return s.run.plans.stream()
                .mapToLong(p -> p.actionsOf(PlanAction.Move.class).size())
                .sum();
    }

    private static Team lowerPriority(String name, double guaranteed) {
        return new Team(name, Math.round(guaranteed * 1000), Team.UNLIMITED, 1, 0)
                .withPreemptWithinTeam(WithinTeamPreemption.LOWER_PRIORITY);
    }

    /** team-a borrows the whole node in four one-GPU jobs. */
    private static Scenario borrowedNode(Scenario s) {
        for (int i = 0; i < 4; i++) {
            s.running("team-a", "a" + i, "node-0", 0, i);
        }
        return s;
    }

    /** The claimant runs beside two of team-a's four jobs; both evicted ones say the reason. */
    private static void twoEvictedFor(Scenario s, String claimant, String reason) {
        assertThat(s.running()).contains(claimant).hasSize(3);
        assertThat(evictionReasons(s)).containsExactly(reason, reason);
    }

    @Test
    void theLadderNamesItsStepsOnceInTheirOrder() {
        assertThat(ReclaimLadder.STEPS.stream().map(ReclaimStep::name))
                .containsExactly(
                        "guarantee",
                        "guarantee, relocating protected jobs",
                        "guarantee, within one job",
                        "department guarantee",
                        "fair share",
                        "fair share, within one job",
                        "priority",
                        "guarantee, with the team's lower-priority jobs",
                        "fair share, with the team's lower-priority jobs",
                        "consolidation");
    }

    @Test
    void guaranteeTakesBorrowedGpusDownToTheVictimsGuarantee() {
        Scenario s = borrowedNode(Scenario.nodes(4).team("team-a", 0, 1).team("team-b", 2, 1))
                .deploy(job("team-b", "b2", 2, 0));
        twoEvictedFor(
                s,
                "team-b/b2",
                "Preempted by team-b reclaiming its guarantee for team-b/b2; this job ran on"
                        + " borrowed GPUs (team-a held 4 GPUs with a guarantee of 0) and is re-queued");
    }

    @Test
    void guaranteeByRelocationMovesAProtectedJobOntoGpusReclaimedElsewhere() {
        // every node holds a 2-GPU job of team-c (within its guarantee) beside team-a's borrowed 2 GPUs: the gang's
        // nodes are freed only by moving team-c's jobs where team-a's were
        Scenario s = Scenario.nodes(4, 4, 4, 4)
                .team("team-a", 0, 1)
                .team("team-b", 8, 1)
                .team("team-c", 8, 1);
        for (int n = 0; n < 4; n++) {
            s.running("team-c", "c" + n, "node-" + n, 0, gpus(0, 2));
            s.running("team-a", "a" + n, "node-" + n, 0, gpus(2, 2));
        }
        s.deploy(ClusterRun.gang("team-b", "train", 2, 2, 4));
        assertThat(s.running()).containsExactly("team-b/train", "team-c/c0", "team-c/c1", "team-c/c2", "team-c/c3");
        assertThat(evictionReasons(s))
                .hasSize(4)
                .containsOnly("Preempted by team-b reclaiming its guarantee for team-b/train; this job ran on"
                        + " borrowed GPUs (team-a held 8 GPUs with a guarantee of 0) and is re-queued");
        assertThat(moves(s)).isEqualTo(2);
    }

    @Test
    void guaranteeWithinOneJobTakesAJobLargerThanTheVictimsExcess() {
        // team-a is 2 above its guarantee in one 4-GPU job: no plan keeps it at its guarantee
        Scenario s = WithinOneJobRulesTest.oneJobAboveItsGuarantee();
        assertThat(s.running()).containsExactly("team-b/b2");
        assertThat(evictionReasons(s))
                .containsExactly("Preempted by team-b reclaiming its guarantee for team-b/b2 (team-b held 0 of 2"
                        + " guaranteed GPUs); team-a held 4 GPUs with a guarantee of 2 and no smaller set of its jobs"
                        + " frees a node for it; this job is re-queued");
    }

    @Test
    void departmentGuaranteeTakesFromATeamOutsideTheDepartment() {
        // team-q has no guarantee of its own; its department is guaranteed 2
        Department d = new Department("d", 2000, Team.UNLIMITED, 1);
        Scenario s = Scenario.nodes(2)
                .team(new Team("team-q", 0, Team.UNLIMITED, 1, 0).withDepartment(d))
                .team("team-out", 0, 1)
                .running("team-out", "o2", "node-0", 0, gpus(0, 2))
                .deploy(job("team-q", "q2", 2, 0));
        assertThat(s.running()).containsExactly("team-q/q2");
        assertThat(evictionReasons(s))
                .containsExactly("Preempted by team-q reclaiming department d's guarantee of 2 GPUs for team-q/q2;"
                        + " this job ran on borrowed GPUs (team-out held 2 GPUs with a guarantee of 0) and is"
                        + " re-queued");
    }

    @Test
    void fairShareTakesFromATeamAboveItsShare() {
        // no guarantees; by demand (4 and 2) and equal weights the shares of 4 GPUs are 2 and 2
        Scenario s = borrowedNode(Scenario.nodes(4).team("team-a", 0, 1).team("team-b", 0, 1))
                .deploy(job("team-b", "b2", 2, 0));
        twoEvictedFor(
                s,
                "team-b/b2",
                "Preempted by team-b reclaiming its fair share of 2 GPUs for team-b/b2; team-a"
                        + " held 4 GPUs with a guarantee of 0 and a fair share of 2; this job is re-queued");
    }

    @Test
    void fairShareWithinOneJobTakesAJobLargerThanTheVictimsExcess() {
        // shares 4 and 6; team-a holds 8 in one job: no plan keeps it at its share
        Scenario s = WithinOneJobRulesTest.oneJobAboveItsShare();
        assertThat(s.running()).containsExactly("team-b/b6");
        assertThat(evictionReasons(s))
                .singleElement()
                .satisfies(r -> assertThat(r)
                        .startsWith("Preempted by team-b reclaiming its fair share of 6 GPUs for team-b/b6;")
                        .endsWith("and no smaller set of its jobs frees a node for it; this job is re-queued"));
    }

    @Test
    void priorityTakesTheTeamsOwnLowerPriorityJobs() {
        Scenario s =
                borrowedNode(Scenario.nodes(4).team(lowerPriority("team-a", 0))).deploy(job("team-a", "urgent", 2, 10));
        twoEvictedFor(
                s,
                "team-a/urgent",
                "Preempted by team-a/urgent (priority 10) of the same team; this job has"
                        + " priority 0 and is re-queued");
    }

    @Test
    void guaranteeWithOwnLowerPriorityFreesOwnJobsAndBorrowedOnesInOnePlan() {
        // team-a (guarantee 4) holds 2 at priority 0 and asks 4 at priority 10: neither its own jobs (priority) nor
        // the borrowed ones (guarantee: 2 + 4 is beyond it) alone make room
        Scenario s = Scenario.nodes(4)
                .team(lowerPriority("team-a", 4))
                .team("team-b", 0, 1)
                .running("team-a", "low", "node-0", 0, gpus(0, 2))
                .running("team-b", "b2", "node-0", 0, gpus(2, 2))
                .deploy(job("team-a", "high", 4, 10));
        assertThat(s.running()).containsExactly("team-a/high");
        assertThat(evictionReasons(s))
                .containsExactlyInAnyOrder(
                        "Preempted by team-a/high (priority 10) of the same team, which needs team-a's guarantee"
                                + " (team-a held 2 GPUs with a guarantee of 4); this job has priority 0 and is"
                                + " re-queued",
                        "Preempted by team-a reclaiming its guarantee for team-a/high; this job ran on borrowed GPUs"
                                + " (team-b held 2 GPUs with a guarantee of 0) and is re-queued");
    }

    /** team-a runs one job of the priority on GPU 0 and team-b three; team-a then asks 2 GPUs at priority 10. */
    private static Scenario ownJobBesideThreeBorrowed(String own, int priority) {
        Scenario s = Scenario.nodes(4)
                .team(lowerPriority("team-a", 0))
                .team("team-b", 0, 1)
                .running("team-a", own, "node-0", priority, 0);
        for (int i = 1; i < 4; i++) {
            s.running("team-b", "b" + i, "node-0", 0, i);
        }
        return s.deploy(job("team-a", "high", 2, 10));
    }

    @Test
    void fairShareWithOwnLowerPriorityFreesOwnJobsAndOnesAboveTheirShareInOnePlan() {
        // shares 2 and 2 (demands 3 and 3): team-a holds 1 at priority 0 and asks 2 at priority 10; its own job alone
        // frees too little (priority), and beside it the job is beyond the share (fair share)
        Scenario s = ownJobBesideThreeBorrowed("low", 0);
        assertThat(s.running())
                .contains("team-a/high")
                .doesNotContain("team-a/low")
                .hasSize(3);
        assertThat(evictionReasons(s))
                .containsExactlyInAnyOrder(
                        "Preempted by team-a/high (priority 10) of the same team, which needs team-a's fair share of 2"
                                + " GPUs (team-a held 1 GPUs with a guarantee of 0); this job has priority 0 and is"
                                + " re-queued",
                        "Preempted by team-a reclaiming its fair share of 2 GPUs for team-a/high; team-b held 3 GPUs"
                                + " with a guarantee of 0 and a fair share of 2; this job is re-queued");
    }

    @Test
    void fairShareWithOwnLowerPriorityTakesNothingWhenTheTeamWouldStillExceedItsShare() {
        // as above, but team-a's own job has the claimant's priority: nothing of its own may go, so nothing goes
        Scenario s = ownJobBesideThreeBorrowed("peer", 10);
        assertThat(s.pending()).containsExactly("team-a/high");
        assertThat(evictionReasons(s)).isEmpty();
    }

    @Test
    void consolidationMovesAJobWhenFreeGpusAreScattered() {
        // 2 + 2 free GPUs on two nodes; no rule lets team-a evict anything
        Scenario s = Scenario.nodes(4, 4)
                .team(new Team("team-a", 0, Team.UNLIMITED, 1, 0).withFairShareReclaim(false))
                .running("team-a", "x", "node-0", 0, gpus(0, 2))
                .running("team-a", "y", "node-1", 0, gpus(0, 2))
                .deploy(job("team-a", "a4", 4, 0));
        assertThat(s.running()).containsExactly("team-a/a4", "team-a/x", "team-a/y");
        assertThat(evictionReasons(s)).isEmpty();
        assertThat(moves(s)).isEqualTo(1);
    }
}

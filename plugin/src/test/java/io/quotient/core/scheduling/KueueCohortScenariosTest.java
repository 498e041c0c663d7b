package io.quotient.core.scheduling;

import static io.quotient.core.model.WithinTeamPreemption.LOWER_PRIORITY;
import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.cohort;
import static io.quotient.core.scheduling.KueueScenarios.cq;
import static io.quotient.core.scheduling.KueueScenarios.fairCq;
import static io.quotient.core.scheduling.KueueScenarios.preempts;
import static io.quotient.core.scheduling.KueueScenarios.units;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static io.quotient.core.scheduling.KueueScenarios.wl;

import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import org.junit.jupiter.api.Test;

/**
 * Kueue's preemption cases with cohorts that have quota of their own
 * ({@code pkg/scheduler/preemption/preemption_test.go}: {@code TestHierarchicalPreemptions}, fair sharing
 * disabled, and the cohort cases of {@code TestFairPreemptions}), translated one for one ({@link KueueScenarios}
 * says how): such a cohort is a {@link Department} guaranteed its subtree quota; a cohort without quota (the root)
 * is none, its ClusterQueues are teams outside any department. In {@code TestHierarchicalPreemptions} every
 * ClusterQueue is LowerPriority with reclaim Any and the teams opt out of fair-share reclaim (Kueue's test runs
 * without fair sharing); in the {@code TestFairPreemptions} cases they keep it.
 *
 * <p>Department guarantee: in Kueue a cohort's own quota belongs to all its ClusterQueues, and one of them with no
 * nominal quota of its own reclaims it from ClusterQueues outside the cohort that borrow it. When these cases were
 * first translated (2026-11-27) seven of them diverged: Quotient's guarantee right was stated on the claimant team's
 * own guarantee only, so a team guaranteed nothing waited (or evicted its own lower-priority jobs) while a team
 * outside with no guarantee kept the department's GPUs, though {@link Department} promises a guarantee its teams
 * "may always reclaim". The department guarantee right ({@code ReclaimRules.departmentGuarantee}) mended it: six
 * now agree with Kueue, one differs only by Kueue's LowerPriority reclaim policy, which Quotient has no setting for.
 *
 * <p>Not translated: borrowWithinCohort ("preempt in cohort and own CQ", "forced to preempt priority candidate",
 * "preempt hierarchical and priority candidates"), multiple resources ("hiearchical preemption with multiple
 * resources"), Kueue's evicted-but-still-admitted state ("prefer to preempt evicted workloads"), lending limits
 * ("respect lending limits"), and cohort trees more than one level deep below the root, which departments cannot
 * nest ("reclaim in complex hierarchy", "deep preemption").
 */
class KueueCohortScenariosTest {

    private static Team loose(String name, int nominal) {
        return cq(name, nominal, null, LOWER_PRIORITY);
    }

    @Test
    void preemptWithHierarchicalAdvantage() {
        // Kueue "preempt with hierarchical advantage": root r {cohort c (2) {q (0)}, q_borrowing (0)};
        // q_borrowing runs admitted2 (0, 2); incoming (0, 2) to q. Kueue: admitted2 is preempted (reclamation).
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right, ReclaimRules.departmentGuarantee): a
        // team may reclaim its department's guarantee from teams outside the department, fair-share reclaim or not.
        Department c = cohort("c", 2, 1);
        Scenario s = Scenario.nodes(2).team(cq("q", 0, c)).team(loose("q_borrowing", 0));
        admitted(s, "q_borrowing", "admitted2", 2, 0);
        s.deploy(wl("q", "incoming", 2, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted2");
    }

    @Test
    void avoidQueuesWithinNominalQuota() {
        // Kueue "avoid queues within nominal quota": as above plus q_nominal (2) under r, running admitted1 (-10,
        // 2); q_borrowing runs admitted2 (0, 2); incoming (0, 2) to q. Kueue: admitted2 is preempted.
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right, ReclaimRules.departmentGuarantee): a
        // team may reclaim its department's guarantee from teams outside the department, fair-share reclaim or not.
        Department c = cohort("c", 2, 1);
        Scenario s = Scenario.nodes(4)
                .team(cq("q", 0, c))
                .team(loose("q_borrowing", 0))
                .team(loose("q_nominal", 2));
        admitted(s, "q_nominal", "admitted1", 2, -10);
        admitted(s, "q_borrowing", "admitted2", 2, 0);
        s.deploy(wl("q", "incoming", 2, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted2");
    }

    @Test
    void preemptMultipleWithHierarchicalAdvantage() {
        // Kueue "preempt multiple with hierarchical advantage": r {c (2) {q (0)}, q_borrowing (0)}; q_borrowing
        // runs admitted1 (1, 1) and admitted2 (2, 1); incoming (0, 2) to q. Kueue: both are preempted.
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right, ReclaimRules.departmentGuarantee): a
        // team may reclaim its department's guarantee from teams outside the department, fair-share reclaim or not.
        Department c = cohort("c", 2, 1);
        Scenario s = Scenario.nodes(2).team(cq("q", 0, c)).team(loose("q_borrowing", 0));
        admitted(s, "q_borrowing", "admitted1", 1, 1);
        admitted(s, "q_borrowing", "admitted2", 1, 2);
        s.deploy(wl("q", "incoming", 2, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted1", "q_borrowing/admitted2");
    }

    @Test
    void preferToPreemptHierarchicalCandidate() {
        // Kueue "prefer to preempt hierarchical candidate": r {c (2) {q (0)}, q_borrowing (0)}; q_borrowing runs
        // admitted_borrowing (1, 1), q runs admitted_same_queue (-2, 1); incoming (0, 1) to q. Kueue:
        // admitted_borrowing is preempted (reclamation), not q's own lower-priority job.
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right, ReclaimRules.departmentGuarantee): a
        // team may reclaim its department's guarantee from teams outside the department, fair-share reclaim or not.
        Department c = cohort("c", 2, 1);
        Scenario s = Scenario.nodes(2).team(cq("q", 0, c)).team(loose("q_borrowing", 0));
        admitted(s, "q_borrowing", "admitted_borrowing", 1, 1);
        admitted(s, "q", "admitted_same_queue", 1, -2);
        s.deploy(wl("q", "incoming", 1, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted_borrowing");
    }

    @Test
    void incomingWorkloadFitsInClusterQueueNominalQuota() {
        // Kueue "incoming workload fits in CQ nominal quota": r {c (2) {q (4), q_same_cohort (0)}, q_borrowing
        // (0)}: department c is guaranteed 6; q_borrowing runs admitted_borrowing (10, 3), q_same_cohort
        // admitted_same_cohort (10, 3); incoming (0, 4) to q. Kueue: both are preempted.
        Department c = cohort("c", 6, 1);
        Scenario s = Scenario.nodes(6)
                .team(cq("q", 4, c))
                .team(cq("q_same_cohort", 0, c))
                .team(loose("q_borrowing", 0));
        admitted(s, "q_borrowing", "admitted_borrowing", 3, 10);
        admitted(s, "q_same_cohort", "admitted_same_cohort", 3, 10);
        s.deploy(wl("q", "incoming", 4, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted_borrowing", "q_same_cohort/admitted_same_cohort");
    }

    @Test
    void preemptHierarchicalCandidatesAndInsideClusterQueue() {
        // Kueue "preempt hierarchical candidates and inside CQ": r (1) {c (4) {q (0), q_same_cohort (0)},
        // q_borrowing (0)}: 5 GPUs, one guaranteed to nobody; q_borrowing runs admitted_borrowing (-1, 2) and
        // admitted_borrowing_not_preemptible (1, 2); q runs admitted_same_queue_preemptible (-1, 1); incoming (0, 3)
        // to q (q reclaims only from lower priorities). Kueue: admitted_borrowing (reclamation) and
        // admitted_same_queue_preemptible (in ClusterQueue) are preempted.
        //
        // DIFFERENCE: Quotient's reclaim of a guarantee (here department c's, 2026-11-27) does not look at priorities
        // (Kueue's reclaimWithinCohort: Any; this case uses LowerPriority, which Quotient has no setting for): it
        // takes both of q_borrowing's jobs, admitted_borrowing_not_preemptible too, and q's own job keeps running;
        // department c ends at 4 of its 4, q_borrowing at 0 of its 0 either way.
        Department c = cohort("c", 4, 1);
        Scenario s = Scenario.nodes(5)
                .team(cq("q", 0, c))
                .team(cq("q_same_cohort", 0, c))
                .team(loose("q_borrowing", 0));
        admitted(s, "q_borrowing", "admitted_borrowing", 2, -1);
        admitted(s, "q", "admitted_same_queue_preemptible", 1, -1);
        admitted(s, "q_borrowing", "admitted_borrowing_not_preemptible", 2, 1);
        s.deploy(wl("q", "incoming", 3, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted_borrowing", "q_borrowing/admitted_borrowing_not_preemptible");
    }

    @Test
    void reclaimNominalQuotaFromLowestPriorityWorkloadExcludingNonBorrowing() {
        // Kueue "reclaim nominal quota from lowest priority workload, excluding non-borrowing": r {c (3) {q (0)},
        // q_borrowing (0), q_nominal (2)}; q_borrowing runs prio_8 (8, 1), prio_9 (9, 1), prio_10 (9, 1); q_nominal
        // runs admitted_nominal (-2, 2); incoming (0, 1) to q. Kueue: admitted_borrowing_prio_8 is preempted.
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right, ReclaimRules.departmentGuarantee): a
        // team may reclaim its department's guarantee from teams outside the department, fair-share reclaim or not.
        Department c = cohort("c", 3, 1);
        Scenario s = Scenario.nodes(5)
                .team(cq("q", 0, c))
                .team(loose("q_borrowing", 0))
                .team(loose("q_nominal", 2));
        admitted(s, "q_borrowing", "admitted_borrowing_prio_8", 1, 8);
        admitted(s, "q_borrowing", "admitted_borrowing_prio_9", 1, 9);
        admitted(s, "q_borrowing", "admitted_borrowing_prio_10", 1, 9);
        admitted(s, "q_nominal", "admitted_nominal", 2, -2);
        s.deploy(wl("q", "incoming", 1, 0));
        preempts(s, "q/incoming", "q_borrowing/admitted_borrowing_prio_8");
    }

    @Test
    void infeasiblePreemptionAllAvailableWorkloadsInPrunedSubtrees() {
        // Kueue "infeasible preemption all available workloads in pruned subtrees": r {c (2) {q (0), q_same_cohort
        // (0)}, c_other (2) {q_other (0)}}; q_other runs admitted_other_1, _2 (-10, 1 each); q_same_cohort runs
        // admitted_same_cohort (0, 2); incoming (0, 2) to q. Kueue: none (c_other is within its quota, and
        // q_same_cohort's job is not of lower priority).
        Department c = cohort("c", 2, 1);
        Department other = cohort("c_other", 2, 1);
        Scenario s = Scenario.nodes(4)
                .team(cq("q", 0, c))
                .team(cq("q_same_cohort", 0, c))
                .team(cq("q_other", 0, other));
        admitted(s, "q_other", "admitted_other_1", 1, -10);
        admitted(s, "q_other", "admitted_other_2", 1, -10);
        admitted(s, "q_same_cohort", "admitted_same_cohort", 2, 0);
        s.deploy(wl("q", "incoming", 2, 0));
        waits(s, "q/incoming");
    }

    @Test
    void cannotPreemptNominalFromCohortWithZeroWeight() {
        // Kueue TestFairPreemptions "can't preempt nominal from Cohort with 0 weight": root {left-cq (0),
        // right-cohort (1, weight 0) {right-cq (0, weight 0)}}; right-cq runs right-1 (1); left-1 (1) to left-cq.
        // Kueue: none.
        Department right = cohort("right-cohort", 1, 0);
        Scenario s = Scenario.nodes(1)
                .team(fairCq("left-cq", 0, 1))
                .team(fairCq("right-cq", 0, 0).withDepartment(right));
        units(s, "right-cq", "right-", 1);
        s.deploy(wl("left-cq", "left-1", 1, 0));
        waits(s, "left-cq/left-1");
    }

    @Test
    void borrowingClusterQueueInNonBorrowingCohortIsProtected() {
        // Kueue TestFairPreemptions "borrowing cq in non-borrowing cohort is protected": ROOT {a (5, weight 10),
        // RIGHT (1, weight 0.1) {b (0, weight 0.1)}}; a runs a1..a3 (-1, 1 each), b runs b1 (-1, 1); incoming (0,
        // 5) to a. Kueue: a1, a2, a3 are preempted (in ClusterQueue); RIGHT is within its quota.
        Department right = cohort("RIGHT", 1, 0.1);
        Scenario s = Scenario.nodes(6)
                .team(fairCq("a", 5, 10))
                .team(fairCq("b", 0, 0.1).withDepartment(right));
        for (int i = 1; i <= 3; i++) {
            admitted(s, "a", "a" + i, 1, -1);
        }
        admitted(s, "b", "b1", 1, -1);
        s.deploy(wl("a", "unit", 5, 0));
        preempts(s, "a/unit", "a/a1", "a/a2", "a/a3");
    }

    @Test
    void forcedToPreemptWithinClusterQueueBecauseBorrowingWorkloadTooImportant() {
        // Kueue TestFairPreemptions "forced to preempt within clusterqueue because borrowing workload too
        // important": ROOT {a (5, weight 10, reclaim LowerPriority), RIGHT (3, weight 0.1) {b (0, weight 0.1)}}; a
        // runs a1..a3 (-1, 1 each), b runs b1 (100, 4); incoming (0, 4) to a. Kueue: a1, a2, a3 are preempted.
        Department right = cohort("RIGHT", 3, 0.1);
        Scenario s = Scenario.nodes(8)
                .team(fairCq("a", 5, 10))
                .team(fairCq("b", 0, 0.1).withDepartment(right));
        for (int i = 1; i <= 3; i++) {
            admitted(s, "a", "a" + i, 1, -1);
        }
        admitted(s, "b", "b1", 4, 100);
        s.deploy(wl("a", "unit", 4, 0));
        preempts(s, "a/unit", "a/a1", "a/a2", "a/a3");
    }

    @Test
    void cohortWithZeroWeightCanReclaimNominalQuota() {
        // Kueue TestFairPreemptions "cohort with zero weight can reclaim nominal quota": ROOT {A (1, weight 0) {a
        // (0, weight 0)}, b (0, weight 1)}; b runs b1 (1); a1 (1) to a. Kueue: b1 is preempted: A reclaims its own
        // quota from b, which has none.
        //
        // Quotient agrees since 2026-11-27 (the department guarantee right): a, guaranteed nothing and of weight 0,
        // reclaims department A's 1 from b, which has no guarantee (by fair share a's share would be 0).
        Department a = cohort("A", 1, 0);
        Scenario s = Scenario.nodes(1).team(fairCq("a", 0, 0).withDepartment(a)).team(fairCq("b", 0, 1));
        units(s, "b", "b", 1);
        s.deploy(wl("a", "a1", 1, 0));
        preempts(s, "a/a1", "b/b1");
    }

    @Test
    void hierarchicalPreemption() {
        // Kueue TestFairPreemptions "hierarchical preemption": ROOT (5) {LEFT (5, weight 2) {a (1, weight 2), b
        // (1)}, c (1), RIGHT (5) {d (1), e (1, weight 0.99)}}: departments LEFT and RIGHT guaranteed 7 each, c
        // outside any, 5 GPUs (ROOT's own) guaranteed to nobody, 20 in all; b, c, d, e run five 1-GPU jobs each of
        // priorities 1..5; unit (5) to a. Kueue: b1, b2, c1, c2, e1 are preempted (a 5, b 3, c 3, d 5, e 4).
        //
        // DIFFERENCE: Quotient's fair shares differ from Kueue's dominant-resource shares: LEFT 9.5 (a 5, b 4.5), c
        // 2.25, RIGHT 8.25 (d 4.14, e 4.11). No plan keeps every victim at its share, so "fair share, within one
        // job" lets each end less than one job below it: b, d and e lose one each at most (RIGHT one in all), c,
        // furthest above its share, three. Quotient evicts the lowest priorities within that: b1, c1, c2, c3, d1
        // (a 5, b 4, c 2, d 4, e 5), five one-GPU jobs as Kueue.
        Department left = cohort("LEFT", 7, 2);
        Department right = cohort("RIGHT", 7, 1);
        Scenario s = Scenario.nodes(20)
                .team(fairCq("a", 1, 2).withDepartment(left))
                .team(fairCq("b", 1, 1).withDepartment(left))
                .team(fairCq("c", 1, 1))
                .team(fairCq("d", 1, 1).withDepartment(right))
                .team(fairCq("e", 1, 0.99).withDepartment(right));
        for (String team : new String[] {"b", "c", "d", "e"}) {
            for (int i = 1; i <= 5; i++) {
                admitted(s, team, team + i, 1, i);
            }
        }
        s.deploy(wl("a", "unit", 5, 0));
        preempts(s, "a/unit", "b/b1", "c/c1", "c/c2", "c/c3", "d/d1");
    }
}

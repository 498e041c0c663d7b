package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.fairCq;
import static io.quotient.core.scheduling.KueueScenarios.preempts;
import static io.quotient.core.scheduling.KueueScenarios.units;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static io.quotient.core.scheduling.KueueScenarios.wl;

import org.junit.jupiter.api.Test;

/**
 * Kueue's {@code TestFairPreemptions} ({@code pkg/scheduler/preemption/preemption_test.go}, fair sharing enabled
 * with the default strategies), the cases of one flat cohort, translated one for one ({@link KueueScenarios} says
 * how). The base cohort {@code all} (no quota of its own: flat teams, fair-share reclaim on, Quotient's default) has
 * {@code a}, {@code b}, {@code c} (3 each, LowerPriority, reclaim Any; their borrowWithinCohort threshold does not
 * affect fair-sharing preemption) and {@code preemptible} (0), on 9 GPUs. Kueue's fair weights are over-quota
 * weights. The cases with cohorts of their own quota are in {@link KueueCohortScenariosTest}.
 *
 * <p>Not translated: "preempt lower priority first, even if big" (the non-default strategy LessThanInitialShare
 * alone); "prefer to preempt workloads that don't make the target CQ have the biggest share", "preempt from different
 * cluster queues if the end result has a smaller max share" and "scenario above does not flap" (jobs of 2.5 and 3.5
 * CPUs: not a whole GPU count, and Quotient fractions are of one GPU).
 */
class KueueFairSharingScenariosTest {

    private static Scenario all() {
        return Scenario.nodes(9)
                .team(fairCq("a", 3, 1))
                .team(fairCq("b", 3, 1))
                .team(fairCq("c", 3, 1))
                .team(fairCq("preemptible", 0, 1));
    }

    @Test
    void reclaimNominalFromUserUsingTheMost() {
        // Kueue "reclaim nominal from user using the most": a runs 3 units, b 5, c 1; c_incoming (1) to c.
        // Kueue: b1 is preempted.
        Scenario s = all();
        units(s, "a", "a", 3);
        units(s, "b", "b", 5);
        units(s, "c", "c", 1);
        s.deploy(wl("c", "c_incoming", 1, 0));
        preempts(s, "c/c_incoming", "b/b1");
    }

    @Test
    void canReclaimFromQueueUsingLessIfTakingFromTheUserUsingTheMostIsNotEnough() {
        // Kueue "can reclaim from queue using less, if taking the latest workload from user using the most isn't
        // enough": a runs a1 (3) and a2 (1): 1 borrowed; b runs b1 (2) and b2 (3): 2 borrowed; c_incoming (3) to
        // c. Kueue: a1 is preempted (a ends at 1, below its nominal 3).
        //
        // DIFFERENCE: a guarantee reclaim takes a team only down to its guarantee while some plan allows that:
        // b1 and a2 free 3 GPUs and leave a and b at their 3. Quotient evicts two jobs where Kueue evicts one,
        // but none of a's in-quota work.
        Scenario s = all();
        admitted(s, "a", "a1", 3, 0);
        admitted(s, "a", "a2", 1, 0);
        admitted(s, "b", "b1", 2, 0);
        admitted(s, "b", "b2", 3, 0);
        s.deploy(wl("c", "c_incoming", 3, 0));
        preempts(s, "c/c_incoming", "a/a2", "b/b1");
    }

    @Test
    void reclaimBorrowableQuotaFromUserUsingTheMost() {
        // Kueue "reclaim borrowable quota from user using the most": a runs 3 units, b 5, c 1; a_incoming (1) to
        // a, beyond a's nominal. Kueue: b1 is preempted (fair sharing). Quotient: fair shares a 4, b 4, c 1.
        Scenario s = all();
        units(s, "a", "a", 3);
        units(s, "b", "b", 5);
        units(s, "c", "c", 1);
        s.deploy(wl("a", "a_incoming", 1, 0));
        preempts(s, "a/a_incoming", "b/b1");
    }

    @Test
    void preemptOneFromEachClusterQueueBorrowing() {
        // Kueue "preempt one from each CQ borrowing": a runs a1, a2 (0.5 each) and a3 (3); b runs b1, b2 (0.5
        // each) and b3 (3); c_incoming (2) to c. Kueue: a1 and b1 are preempted. Here the halves are GPU fractions,
        // a1 and b1 sharing GPU 0, a2 and b2 GPU 1 (evicting a1 and a2 would free no whole GPU).
        Scenario s = all();
        s.runningFraction("a", "a1", "node-0", 500, 0);
        s.runningFraction("b", "b1", "node-0", 500, 0);
        s.runningFraction("a", "a2", "node-0", 500, 1);
        s.runningFraction("b", "b2", "node-0", 500, 1);
        s.running("a", "a3", "node-0", 0, 2, 3, 4);
        s.running("b", "b3", "node-0", 0, 5, 6, 7);
        s.deploy(wl("c", "c_incoming", 2, 0));
        preempts(s, "c/c_incoming", "a/a1", "b/b1");
    }

    @Test
    void cannotPreemptWhenEveryoneIsUnderNominal() {
        // Kueue "can't preempt when everyone under nominal": a, b, c run 3 units each; c_incoming (1). Kueue: none.
        Scenario s = all();
        units(s, "a", "a", 3);
        units(s, "b", "b", 3);
        units(s, "c", "c", 3);
        s.deploy(wl("c", "c_incoming", 1, 0));
        waits(s, "c/c_incoming");
    }

    @Test
    void cannotPreemptWhenItWouldSwitchTheImbalance() {
        // Kueue "can't preempt when it would switch the imbalance": a runs 3 units, b 5; a_incoming (2). Kueue:
        // none. Quotient: fair shares a 4.5, b 4.5; a with the job would hold 5.
        Scenario s = all();
        units(s, "a", "a", 3);
        units(s, "b", "b", 5);
        s.deploy(wl("a", "a_incoming", 2, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void canPreemptLowerPriorityWorkloadsFromTheSameClusterQueue() {
        // Kueue "can preempt lower priority workloads from same CQ": a runs a1_low, a2_low (-1) and a3, a4 (0),
        // b runs 5 units; a_incoming (2). Kueue: a1_low and a2_low are preempted (in ClusterQueue).
        Scenario s = all();
        admitted(s, "a", "a1_low", 1, -1);
        admitted(s, "a", "a2_low", 1, -1);
        admitted(s, "a", "a3", 1, 0);
        admitted(s, "a", "a4", 1, 0);
        units(s, "b", "b", 5);
        s.deploy(wl("a", "a_incoming", 2, 0));
        preempts(s, "a/a_incoming", "a/a1_low", "a/a2_low");
    }

    @Test
    void canPreemptACombinationOfTheSameClusterQueueAndTheHighestUser() {
        // Kueue "can preempt a combination of same CQ and highest user": a runs a_low (-1), a2, a3; b runs 6
        // units; a_incoming (2). Kueue: a_low (in ClusterQueue) and b1 (fair sharing) are preempted: a ends at 4,
        // b at 5. Quotient: fair shares 4.5 and 4.5; no rule alone has a plan (the job beside a's 3 exceeds its share,
        // a_low alone frees 1 of 2), so the fair share with the team's lower-priority jobs frees a_low (a, with the
        // job,
        // then within its share) and takes the other GPU from b, clearly above its share.
        Scenario s = all();
        admitted(s, "a", "a_low", 1, -1);
        admitted(s, "a", "a2", 1, 0);
        admitted(s, "a", "a3", 1, 0);
        units(s, "b", "b", 6);
        s.deploy(wl("a", "a_incoming", 2, 0));
        preempts(s, "a/a_incoming", "a/a_low", "b/b1");
    }

    @Test
    void preemptHugeWorkloadIfThereIsNoOtherOption() {
        // Kueue "preempt huge workload if there is no other option, as long as the target CQ gets a lower share": b
        // runs b1 (9); a_incoming (2). Kueue: b1 is preempted. Quotient: guarantee, within one job.
        Scenario s = all();
        admitted(s, "b", "b1", 9, 0);
        s.deploy(wl("a", "a_incoming", 2, 0));
        preempts(s, "a/a_incoming", "b/b1");
    }

    @Test
    void cannotPreemptHugeWorkloadIfTheIncomingIsAlsoHuge() {
        // Kueue "can't preempt huge workload if the incoming is also huge": a runs a1 (2), b b1 (7); a_incoming (5).
        // Kueue: none.
        Scenario s = all();
        admitted(s, "a", "a1", 2, 0);
        admitted(s, "b", "b1", 7, 0);
        s.deploy(wl("a", "a_incoming", 5, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void cannotPreemptTwoSmallerWorkloadsIfTheIncomingIsHuge() {
        // Kueue "can't preempt 2 smaller workloads if the incoming is huge": b runs b1 (2), b2 (2), b3 (3);
        // a_incoming (6). Kueue: none.
        Scenario s = all();
        admitted(s, "b", "b1", 2, 0);
        admitted(s, "b", "b2", 2, 0);
        admitted(s, "b", "b3", 3, 0);
        s.deploy(wl("a", "a_incoming", 6, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void preemptFromTargetAndOthersEvenIfOverNominal() {
        // Kueue "preempt from target and others even if over nominal": a runs a1_low (-1, 2), a2_low (-1, 1); b runs
        // b1 (3), b2 (3); a_incoming (4). Kueue: a1_low and b1 are preempted: a ends at 5, b at 3.
        //
        // DIFFERENCE: Quotient's fair-share reclaim lets the claimant end at most at its fair share (4.5 here; 5
        // with the job even after a's own evictions), so that shares converge; Kueue's LessThanInitialShare
        // strategy lets a end above b. Quotient keeps a_incoming pending and evicts nothing.
        Scenario s = all();
        admitted(s, "a", "a1_low", 2, -1);
        admitted(s, "a", "a2_low", 1, -1);
        admitted(s, "b", "b1", 3, 0);
        admitted(s, "b", "b2", 3, 0);
        s.deploy(wl("a", "a_incoming", 4, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void cannotPreemptIfTheCandidateWouldGoUnderNominal() {
        // Kueue "cannot preempt if it would make the candidate CQ go under nominal after preempting one element": b
        // runs b1 (3), b2 (3); c runs c1 (3); a_incoming (4). Kueue: none.
        Scenario s = all();
        admitted(s, "b", "b1", 3, 0);
        admitted(s, "b", "b2", 3, 0);
        admitted(s, "c", "c1", 3, 0);
        s.deploy(wl("a", "a_incoming", 4, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void workloadsUnderPriorityThresholdNotCapriciouslyPreempted() {
        // Kueue "workloads under priority threshold not capriciously preempted": a runs 3 units, b 3, preemptible
        // (nominal 0) preemptible1..3 (-3); a_incoming (2). Kueue: none. Quotient: fair shares a 4.5, preemptible
        // 1.5; a with the job would hold 5.
        Scenario s = all();
        units(s, "a", "a", 3);
        units(s, "b", "b", 3);
        for (int i = 1; i <= 3; i++) {
            admitted(s, "preemptible", "preemptible" + i, 1, -3);
        }
        s.deploy(wl("a", "a_incoming", 2, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void preemptWorkloadThatDoesNotTransferTheImbalanceEvenIfHighPriority() {
        // Kueue "preempt workload that doesn't transfer the imbalance, even if high priority"
        // (LessThanOrEqualToFinalShare, Kueue's first default strategy): a runs a1 (3); b runs b_low (0, 5) and
        // b_high (1, 1); a_incoming (1). Kueue: b_high is preempted. Quotient: fair shares a 4, b 5.
        Scenario s = all();
        admitted(s, "a", "a1", 3, 0);
        admitted(s, "b", "b_low", 5, 0);
        admitted(s, "b", "b_high", 1, 1);
        s.deploy(wl("a", "a_incoming", 1, 0));
        preempts(s, "a/a_incoming", "b/b_high");
    }

    @Test
    void clusterQueueWithHigherWeightCanPreemptMore() {
        // Kueue "CQ with higher weight can preempt more": a (weight 2), b, c (no preemptible queue); a runs 3 units,
        // b 6; a_incoming (2). Kueue: b1 and b2 are preempted. Quotient: fair shares a 5, b 4.
        Scenario s = Scenario.nodes(9)
                .team(fairCq("a", 3, 2))
                .team(fairCq("b", 3, 1))
                .team(fairCq("c", 3, 1));
        units(s, "a", "a", 3);
        units(s, "b", "b", 6);
        s.deploy(wl("a", "a_incoming", 2, 0));
        preempts(s, "a/a_incoming", "b/b1", "b/b2");
    }

    @Test
    void canPreemptAnythingBorrowingFromClusterQueueWithZeroWeight() {
        // Kueue "can preempt anything borrowing from CQ with 0 weight": b has weight 0; a runs 3 units, b 6;
        // a_incoming (3). Kueue: b1, b2, b3 are preempted.
        Scenario s = Scenario.nodes(9)
                .team(fairCq("a", 3, 1))
                .team(fairCq("b", 3, 0))
                .team(fairCq("c", 3, 1));
        units(s, "a", "a", 3);
        units(s, "b", "b", 6);
        s.deploy(wl("a", "a_incoming", 3, 0));
        preempts(s, "a/a_incoming", "b/b1", "b/b2", "b/b3");
    }

    @Test
    void cannotPreemptNominalFromClusterQueueWithZeroWeight() {
        // Kueue "can't preempt nominal from CQ with 0 weight": a and b (weight 0) only, 6 GPUs; each runs 3 units;
        // a_incoming (1). Kueue: none.
        Scenario s = Scenario.nodes(6).team(fairCq("a", 3, 1)).team(fairCq("b", 3, 0));
        units(s, "a", "a", 3);
        units(s, "b", "b", 3);
        s.deploy(wl("a", "a_incoming", 1, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void canPreemptWithinClusterQueueWhenNoCohort() {
        // Kueue "can preempt within cluster queue when no cohort": a (1, no cohort) runs a1; a_incoming (priority
        // 1000). Kueue: a1 is preempted.
        Scenario s = Scenario.nodes(1).team(fairCq("a", 1, 1));
        units(s, "a", "a", 1);
        s.deploy(wl("a", "a_incoming", 1, 1000));
        preempts(s, "a/a_incoming", "a/a1");
    }

    @Test
    void clusterQueueWithZeroWeightCanReclaimNominalQuota() {
        // Kueue "cq with zero weight can reclaim nominal quota": a (1, weight 0), b (0); b runs b1; a1 (1) to a.
        // Kueue: b1 is preempted.
        Scenario s = Scenario.nodes(1).team(fairCq("a", 1, 0)).team(fairCq("b", 0, 1));
        units(s, "b", "b", 1);
        s.deploy(wl("a", "a1", 1, 0));
        preempts(s, "a/a1", "b/b1");
    }
}

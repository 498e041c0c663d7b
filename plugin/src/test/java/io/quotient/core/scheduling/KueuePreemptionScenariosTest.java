package io.quotient.core.scheduling;

import static io.quotient.core.model.WithinTeamPreemption.LOWER_PRIORITY;
import static io.quotient.core.model.WithinTeamPreemption.NEVER;
import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.cq;
import static io.quotient.core.scheduling.KueueScenarios.preempts;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static io.quotient.core.scheduling.KueueScenarios.wl;

import org.junit.jupiter.api.Test;

/**
 * Kueue's {@code TestPreemption} ({@code pkg/scheduler/preemption/preemption_test.go}, fair sharing disabled),
 * translated one for one ({@link KueueScenarios} says how). Kueue's ClusterQueues, as teams (all with fair-share
 * reclaim off, as Kueue's test runs without fair sharing): {@code standalone} (6, no cohort: maxGpus 6,
 * LowerPriority); cohort {@code cohort} (no quota of its own: flat teams) with {@code c1} (6, borrowingLimit 6,
 * LowerPriority; Kueue reclaims for it only from lower priorities) and {@code c2} (6, borrowingLimit 6, Never;
 * reclaim Any); {@code cohort-no-limits} with {@code d1}, {@code d2} (as c1, c2 without borrowing limit); {@code l1}
 * (6, borrowingLimit 6) alone in {@code legion}; {@code cohort-three} with {@code a} (2, LowerPriority, reclaim
 * Any), {@code b} and {@code c} (2, Never); {@code with_shared_cq} with {@code a_standard} (1, borrowingLimit 12,
 * Never), {@code b_standard} (1, 12, LowerPriority), {@code a_best_effort} (1, 12), {@code b_best_effort} (0, 13)
 * and {@code shared} (10).
 *
 * <p>Not translated: the flavor and multi-resource cases ("only preempt workloads using the chosen flavor", "reclaim
 * quota if workload requests 0 resources for a resource at nominal quota", "preempting locally and borrowing other
 * resources in cohort, with(out) cohort candidates", "each podset preempts a different flavor", "preemptions from cq
 * when target queue is exhausted for two requested resources" and "... for one requested resource, but not the
 * other"); LowerOrNewerEqualPriority ("preempt newer workloads with the same priority"); borrowWithinCohort
 * thresholds (the four other "use BorrowWithinCohort; ..." cases); lending limits ("reclaim quota from lender",
 * "preempt from all ClusterQueues in cohort-lend", "cannot preempt from other ClusterQueues if exceeds requestable
 * quota including lending limit").
 */
class KueuePreemptionScenariosTest {

    private static Scenario standalone() {
        return Scenario.nodes(6).team(cq("standalone", 6, 0, LOWER_PRIORITY));
    }

    /** Cohort {@code cohort}: c1, c2 of 6 each on 12 GPUs. */
    private static Scenario cohort() {
        return Scenario.nodes(12).team(cq("c1", 6, 6, LOWER_PRIORITY)).team(cq("c2", 6, 6, NEVER));
    }

    /** Cohort {@code cohort-three}: a, b, c of 2 each on 6 GPUs. */
    private static Scenario cohortThree() {
        return Scenario.nodes(6)
                .team(cq("a", 2, null, LOWER_PRIORITY))
                .team(cq("b", 2, null, NEVER))
                .team(cq("c", 2, null, NEVER));
    }

    /** Cohort {@code with_shared_cq} on 13 GPUs. */
    private static Scenario withSharedCq() {
        return Scenario.nodes(13)
                .team(cq("a-standard", 1, 12, NEVER))
                .team(cq("b-standard", 1, 12, LOWER_PRIORITY))
                .team(cq("a-best-effort", 1, 12, NEVER))
                .team(cq("b-best-effort", 0, 13, NEVER))
                .team(cq("shared", 10, null, NEVER));
    }

    @Test
    void preemptLowestPriority() {
        // Kueue "preempt lowest priority": standalone runs low (-1), mid (0), high (1), 2 GPUs each; in (1, 2 GPUs).
        // Kueue: low is preempted.
        Scenario s = standalone();
        admitted(s, "standalone", "low", 2, -1);
        admitted(s, "standalone", "mid", 2, 0);
        admitted(s, "standalone", "high", 2, 1);
        s.deploy(wl("standalone", "in", 2, 1));
        preempts(s, "standalone/in", "standalone/low");
    }

    @Test
    void preemptMultiple() {
        // Kueue "preempt multiple": as above, in asks 3. Kueue: low and mid are preempted.
        Scenario s = standalone();
        admitted(s, "standalone", "low", 2, -1);
        admitted(s, "standalone", "mid", 2, 0);
        admitted(s, "standalone", "high", 2, 1);
        s.deploy(wl("standalone", "in", 3, 1));
        preempts(s, "standalone/in", "standalone/low", "standalone/mid");
    }

    @Test
    void noPreemptionForLowPriority() {
        // Kueue "no preemption for low priority": low (-1, 3), mid (0, 3); in (-1, 1). Kueue: nothing is preempted.
        Scenario s = standalone();
        admitted(s, "standalone", "low", 3, -1);
        admitted(s, "standalone", "mid", 3, 0);
        s.deploy(wl("standalone", "in", 1, -1));
        waits(s, "standalone/in");
    }

    @Test
    void notEnoughLowPriorityWorkloads() {
        // Kueue "not enough low priority workloads": low (-1, 3), mid (0, 3); in (0, 4): only low is lower, and
        // its 3 are not enough. Kueue: nothing is preempted.
        Scenario s = standalone();
        admitted(s, "standalone", "low", 3, -1);
        admitted(s, "standalone", "mid", 3, 0);
        s.deploy(wl("standalone", "in", 4, 0));
        waits(s, "standalone/in");
    }

    @Test
    void someFreeQuotaPreemptLowPriority() {
        // Kueue "some free quota, preempt low priority": low (-1, 1), mid (0, 1), high (1, 3), 1 free; in (1, 2).
        // Kueue: low is preempted.
        Scenario s = standalone();
        admitted(s, "standalone", "low", 1, -1);
        admitted(s, "standalone", "mid", 1, 0);
        admitted(s, "standalone", "high", 3, 1);
        s.deploy(wl("standalone", "in", 2, 1));
        preempts(s, "standalone/in", "standalone/low");
    }

    @Test
    void minimalSetExcludesLowPriority() {
        // Kueue "minimal set excludes low priority": low (-1, 1), mid (0, 2), high (1, 3); in (1, 2). Kueue: only
        // mid is preempted (low is dropped from the set, mid alone makes room).
        Scenario s = standalone();
        admitted(s, "standalone", "low", 1, -1);
        admitted(s, "standalone", "mid", 2, 0);
        admitted(s, "standalone", "high", 3, 1);
        s.deploy(wl("standalone", "in", 2, 1));
        preempts(s, "standalone/in", "standalone/mid");
    }

    @Test
    void reclaimQuotaFromBorrower() {
        // Kueue "reclaim quota from borrower": c1 runs c1-low (-1, 3); c2 runs c2-mid (0, 3) and c2-high (1, 6), 3
        // borrowed; in (1, 3) to c1 (within its nominal). Kueue: c2-mid is preempted (in-cohort reclamation).
        Scenario s = cohort();
        admitted(s, "c1", "c1-low", 3, -1);
        admitted(s, "c2", "c2-mid", 3, 0);
        admitted(s, "c2", "c2-high", 6, 1);
        s.deploy(wl("c1", "in", 3, 1));
        preempts(s, "c1/in", "c2/c2-mid");
    }

    @Test
    void noWorkloadsBorrowing() {
        // Kueue "no workloads borrowing": c1 runs c1-high (1, 4), c2 c2-low-1 (-1, 4); in (1, 4) to c1. Kueue (its
        // test forces preemption mode): nothing is preempted, c2 is within its nominal and c1 has nothing lower.
        // Quotient preempts nothing either and places in on the 4 idle GPUs (c1 borrows 2, within its limit of
        // 6), as Kueue's scheduler would admit it by borrowing.
        Scenario s = cohort();
        admitted(s, "c1", "c1-high", 4, 1);
        admitted(s, "c2", "c2-low-1", 4, -1);
        s.deploy(wl("c1", "in", 4, 1));
        preempts(s, "c1/in");
    }

    @Test
    void notEnoughWorkloadsBorrowing() {
        // Kueue "not enough workloads borrowing": c1 runs c1-high (1, 4); c2 runs c2-low-1 and c2-low-2 (-1, 4
        // each), 2 borrowed; in (1, 4) to c1 would take c1 beyond its nominal. Kueue: nothing is preempted.
        Scenario s = cohort();
        admitted(s, "c1", "c1-high", 4, 1);
        admitted(s, "c2", "c2-low-1", 4, -1);
        admitted(s, "c2", "c2-low-2", 4, -1);
        s.deploy(wl("c1", "in", 4, 1));
        waits(s, "c1/in");
    }

    @Test
    void preemptingLocallyAndBorrowingSameResourceInCohort() {
        // Kueue "preempting locally and borrowing same resource in cohort": c1 runs c1-med (0, 4) and c1-low (-1,
        // 4), 2 borrowed; c2 runs c2-low-1 (-1, 4); in (1, 4) to c1. Kueue: c1-low is preempted (in ClusterQueue).
        Scenario s = cohort();
        admitted(s, "c1", "c1-med", 4, 0);
        admitted(s, "c1", "c1-low", 4, -1);
        admitted(s, "c2", "c2-low-1", 4, -1);
        s.deploy(wl("c1", "in", 4, 1));
        preempts(s, "c1/in", "c1/c1-low");
    }

    @Test
    void preemptingLocallyAndBorrowingSameResourceInCohortWithoutBorrowingLimit() {
        // Kueue "preempting locally and borrowing same resource in cohort; no borrowing limit in the cohort": as
        // above with d1, d2 (no borrowing limit). Kueue: d1-low is preempted.
        Scenario s = Scenario.nodes(12).team(cq("d1", 6, null, LOWER_PRIORITY)).team(cq("d2", 6, null, NEVER));
        admitted(s, "d1", "d1-med", 4, 0);
        admitted(s, "d1", "d1-low", 4, -1);
        admitted(s, "d2", "d2-low-1", 4, -1);
        s.deploy(wl("d1", "in", 4, 1));
        preempts(s, "d1/in", "d1/d1-low");
    }

    @Test
    void preemptingLocallyAndNotBorrowingSameResourceInOneQueueCohort() {
        // Kueue "preempting locally and not borrowing same resource in 1-queue cohort": l1 (6, alone in its
        // cohort: 6 GPUs) runs l1-med (0, 4) and l1-low (-1, 2); in (1, 4). Kueue: l1-med alone is preempted.
        Scenario s = Scenario.nodes(6).team(cq("l1", 6, 6, LOWER_PRIORITY));
        admitted(s, "l1", "l1-med", 4, 0);
        admitted(s, "l1", "l1-low", 2, -1);
        s.deploy(wl("l1", "in", 4, 1));
        preempts(s, "l1/in", "l1/l1-med");
    }

    @Test
    void doNotReclaimBorrowedQuotaFromSamePriorityForReclaimFromLowerPriority() {
        // Kueue "do not reclaim borrowed quota from same priority for withinCohort=ReclaimFromLowerPriority": c1
        // runs c1 (0, 2); c2 runs c2-1 and c2-2 (0, 4 each), 2 borrowed; in (0, 4) to c1, within its nominal.
        // Kueue: nothing is preempted (c1 reclaims only from lower priorities).
        //
        // DIFFERENCE: Quotient has no LowerPriority reclaim policy: a job within its team's guarantee always
        // reclaims from teams above theirs (Kueue's reclaimWithinCohort Any, as in the next case). No 4-GPU hole
        // keeps c2 at its 6, so "guarantee, within one job" evicts one of c2's jobs: c2 ends at 4, less than one
        // job and no further below its guarantee than c1 was (4 below).
        Scenario s = cohort();
        admitted(s, "c1", "c1", 2, 0);
        admitted(s, "c2", "c2-1", 4, 0);
        admitted(s, "c2", "c2-2", 4, 0);
        s.deploy(wl("c1", "in", 4, 0));
        preempts(s, "c1/in", "c2/c2-1");
    }

    @Test
    void reclaimBorrowedQuotaFromSamePriorityForReclaimFromAny() {
        // Kueue "reclaim borrowed quota from same priority for withinCohort=ReclaimFromAny": c1 runs c1-1 (0, 4)
        // and c1-2 (1, 4), 2 borrowed; c2 runs c2 (0, 2); in (0, 4) to c2. Kueue: c1-1 is preempted.
        Scenario s = cohort();
        admitted(s, "c1", "c1-1", 4, 0);
        admitted(s, "c1", "c1-2", 4, 1);
        admitted(s, "c2", "c2", 2, 0);
        s.deploy(wl("c2", "in", 4, 0));
        preempts(s, "c2/in", "c1/c1-1");
    }

    @Test
    void preemptFromAllClusterQueuesInCohort() {
        // Kueue "preempt from all ClusterQueues in cohort": c1 runs c1-low (-1, 3) and c1-mid (0, 2): 5 of 6; c2
        // runs c2-low (-1, 3) and c2-mid (0, 4): 1 borrowed; in (0, 4) to c1. Kueue: c1-low (in ClusterQueue) and
        // c2-low (reclamation) are preempted; c1 ends at its nominal 6.
        //
        // OPEN DIVERGENCE (asserted as Quotient behaves today, so that a change shows; docs/user-guide.md, "Team
        // quotas"): Quotient keeps in pending and evicts nothing, so c1 stays at 5 of its 6 while c2 borrows.
        // The guarantee right needs the job to fit the guarantee beside everything the team holds now (5 + 4 > 6),
        // and the priority right may take only the team's own jobs (c1-low frees 3, 4 are needed); no rule
        // combines the two (evict the team's own lower-priority jobs until the job fits its guarantee, then
        // reclaim the rest from teams above theirs), as Kueue does. Fair-share reclaim (Quotient's default) does
        // not help: the fair shares are the guarantees, 6 and 6, and 5 + 4 exceeds 6.
        Scenario s = cohort();
        admitted(s, "c1", "c1-low", 3, -1);
        admitted(s, "c1", "c1-mid", 2, 0);
        admitted(s, "c2", "c2-low", 3, -1);
        admitted(s, "c2", "c2-mid", 4, 0);
        s.deploy(wl("c1", "in", 4, 0));
        waits(s, "c1/in");
    }

    @Test
    void cannotPreemptWorkloadsInClusterQueueForWithinClusterQueueNever() {
        // Kueue "can't preempt workloads in ClusterQueue for withinClusterQueue=Never": c2 runs c2-low (-1, 3); in
        // (1, 4) to c2. Kueue (preemption mode forced): nothing is preempted. Here c1 holds its own 6 so that the
        // job does not fit idle GPUs; c2-low would make room but c2 is Never.
        Scenario s = cohort();
        admitted(s, "c1", "c1-nominal", 6, 0);
        admitted(s, "c2", "c2-low", 3, -1);
        s.deploy(wl("c2", "in", 4, 1));
        waits(s, "c2/in");
    }

    @Test
    void borrowWithinCohortAllowPreemptingWhenBorrowingIsNotRequiredAfter() {
        // Kueue "use BorrowWithinCohort; allow preempting a lower-priority workload with priority above
        // MaxPriorityThreshold, if borrowing is not required after the preemption": b_standard runs b_standard (1,
        // 13: 12 borrowed); in (2, 1) to a_standard, within its nominal 1. Kueue: b_standard is preempted
        // (reclamation: borrowWithinCohort is not needed).
        Scenario s = withSharedCq();
        admitted(s, "b-standard", "b-standard", 13, 1);
        s.deploy(wl("a-standard", "in", 1, 2));
        preempts(s, "a-standard/in", "b-standard/b-standard");
    }

    @Test
    void borrowWithinCohortDoesNotPreemptFromTheSameClusterQueue() {
        // Kueue "use BorrowWithinCohort; don't allow for preemption of lower-priority workload from the same
        // ClusterQueue": a_standard (Never) runs a_standard (1, 13: at its limit); in (2, 1). Kueue: nothing.
        Scenario s = withSharedCq();
        admitted(s, "a-standard", "a-standard", 13, 1);
        s.deploy(wl("a-standard", "in", 1, 2));
        waits(s, "a-standard/in");
    }

    @Test
    void preemptionsFromClusterQueueWhenTargetQueueIsExhausted() {
        // Kueue "preemptions from cq when target queue is exhausted for the single requested resource": a runs a1,
        // a2 (-2, 1 each) and a3 (-1, 1): 1 borrowed; b runs b1..b3 (0, 1 each); in (0, 2) to a. Kueue: a1 and a2
        // are preempted (in ClusterQueue).
        Scenario s = cohortThree();
        admitted(s, "a", "a1", 1, -2);
        admitted(s, "a", "a2", 1, -2);
        admitted(s, "a", "a3", 1, -1);
        for (int i = 1; i <= 3; i++) {
            admitted(s, "b", "b" + i, 1, 0);
        }
        s.deploy(wl("a", "in", 2, 0));
        preempts(s, "a/in", "a/a1", "a/a2");
    }

    @Test
    void allowPreemptionFromOtherClusterQueuesIfTargetIsNotExhausted() {
        // Kueue "allow preemption from other cluster queues if target cq is not exhausted for the requested
        // resource": a runs a1 (-1, 1): 1 of 2; b runs b1..b4 (0, 1 each) and b5 (-1, 1): 3 borrowed; in (0, 2) to
        // a. Kueue: a1 (in ClusterQueue) and b5 (reclamation) are preempted; a ends at its nominal 2.
        //
        // Quotient agrees since 2026-11-27 ("guarantee, with the team's lower-priority jobs", tried when no rule
        // alone finds a plan): a frees its own a1 and reclaims b5 from b, which borrows.
        Scenario s = cohortThree();
        admitted(s, "a", "a1", 1, -1);
        for (int i = 1; i <= 4; i++) {
            admitted(s, "b", "b" + i, 1, 0);
        }
        admitted(s, "b", "b5", 1, -1);
        s.deploy(wl("a", "in", 2, 0));
        preempts(s, "a/in", "a/a1", "b/b5");
    }

    @Test
    void longRangePreemption() {
        // Kueue "long range preemption": cohorts cohort-left and cohort-right (no quota of their own: flat teams)
        // under root; cq-left (10, reclaim Any), cq-right (0) runs to-be-preempted (0, 5); incoming (0, 8) to
        // cq-left. Kueue: to-be-preempted is preempted.
        Scenario s = Scenario.nodes(10).team(cq("cq-left", 10, null, NEVER)).team(cq("cq-right", 0, null, NEVER));
        admitted(s, "cq-right", "to-be-preempted", 5, 0);
        s.deploy(wl("cq-left", "incoming", 8, 0));
        preempts(s, "cq-left/incoming", "cq-right/to-be-preempted");
    }
}

package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KueueFlavorScenarios.A100;
import static io.quotient.core.scheduling.KueueFlavorScenarios.H100;
import static io.quotient.core.scheduling.KueueFlavorScenarios.L40S;
import static io.quotient.core.scheduling.KueueFlavorScenarios.admitted;
import static io.quotient.core.scheduling.KueueFlavorScenarios.cq;
import static io.quotient.core.scheduling.KueueFlavorScenarios.flavors;
import static io.quotient.core.scheduling.KueueFlavorScenarios.landsWithoutEviction;
import static io.quotient.core.scheduling.KueueFlavorScenarios.pinned;
import static io.quotient.core.scheduling.KueueFlavorScenarios.quota;
import static io.quotient.core.scheduling.KueueFlavorScenarios.runsOn;
import static io.quotient.core.scheduling.KueueFlavorScenarios.units;
import static io.quotient.core.scheduling.KueueScenarios.evicted;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.QuotaState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's flavor assigner cases ({@code pkg/scheduler/flavorassigner/flavorassigner_test.go}: {@code
 * TestAssignFlavors}, {@code TestReclaimBeforePriorityPreemption}, {@code TestHierarchical}) translated one for one
 * ({@link KueueFlavorScenarios} says how). Quantities are scaled to nodes of a few GPUs where the case allows it (the
 * scale is given per case). Not translated: several resources or resource groups per workload, several pod sets
 * (Quotient runs a job on one model), taints and tolerations, pods and zero-count pod sets, reclaimable pods, lending
 * limits, workload slices and topology-aware scheduling, which have no equivalent here.
 */
class KueueFlavorAssignerScenariosTest {

    // --- TestAssignFlavors ---

    @Test
    void singleFlavorUsedResourcesDoesNotFit() {
        // Kueue "single flavor, used resources, doesn't fit": default 4, usage 3, request 2: mode Preempt (inside
        // the ClusterQueue). With the usage as three priority-0 workloads and the request at priority 1, Kueue's
        // withinClusterQueue LowerPriority preempts one of them. Quotient agrees.
        Scenario s = flavors(4, 0, 0).team(cq("t", quota(H100, 4)));
        units(s, "t", "low", H100, 3, 0);
        s.deploy(Scenario.job("t", "incoming", 2, 1));
        runsOn(s, "t", "incoming", H100);
        assertThat(evicted(s)).as(() -> KaiScenarios.state(s)).hasSize(1).allMatch(j -> j.startsWith("t/low"));
    }

    @Test
    void pastMinButCanPreemptInClusterQueue() {
        // Kueue "past min, but can preempt in ClusterQueue": one 2, usage 1, request 2: mode Preempt. The usage a
        // priority-0 workload, the request priority 1: Kueue preempts it. Quotient agrees.
        Scenario s = flavors(2, 0, 0).team(cq("t", quota(H100, 2)));
        admitted(s, "t", "low", H100, 1, 0);
        s.deploy(Scenario.job("t", "incoming", 2, 1));
        runsOn(s, "t", "incoming", H100);
        assertThat(evicted(s)).as(() -> KaiScenarios.state(s)).containsExactly("t/low");
    }

    @Test
    void pastMaxButCanPreemptInClusterQueue() {
        // Kueue "past max, but can preempt in ClusterQueue": t one nominal 2, borrowingLimit 8 (max 10), usage 9;
        // cohort partner nominal 98, usage 9; request 2: past t's maximum, mode Preempt inside t. Scaled: t nominal
        // 1, max 4, three priority-0 workloads; partner nominal 7 holds 3 (8 H100s); the request at priority 1:
        // Kueue preempts one of t's own workloads (3 - 1 + 2 = 4, at the maximum). When first translated Quotient
        // kept the job waiting ("team t at its maximum for H100-80GB (3 of 4 GPUs)"): a job at a group maximum did not
        // displace its own team's lower-priority jobs, as one at the overall maximum does. Mended
        // (GroupDecision.displacesOwnAtGroupMax): Quotient agrees.
        Scenario s = flavors(8, 0, 0).team(cq("t", quota(H100, 1, 3))).team(cq("partner", quota(H100, 7)));
        units(s, "t", "low", H100, 3, 0);
        units(s, "partner", "p", H100, 3, 0);
        s.deploy(Scenario.job("t", "incoming", 2, 1));
        runsOn(s, "t", "incoming", H100);
        assertThat(evicted(s)).as(() -> KaiScenarios.state(s)).hasSize(1).allMatch(j -> j.startsWith("t/low"));
    }

    @Test
    void canOnlyPreemptFlavorsThatMatchAffinity() {
        // Kueue "can only preempt flavors that match affinity": one 4, two 4, usage 3 in each, request 2 with a node
        // selector for two: mode Preempt in two. With t's workloads at priority 0 and the request at 1, Kueue
        // preempts one workload on two and none on one. DIFFERENCE by rule (docs/fairness.md, the fungibility rule):
        // Quotient frees the A100 without a preemption, moving one of t's unpinned A100 jobs to the idle H100 where
        // t's guarantee has room (Kueue never revisits an admitted workload's flavor); the pinned job runs on A100.
        Scenario s = flavors(4, 4, 0).team(cq("t", quota(H100, 4), quota(A100, 4)));
        units(s, "t", "h", H100, 3, 0);
        units(s, "t", "a", A100, 3, 0);
        s.deploy(pinned("t", "incoming", 2, 1, A100));
        runsOn(s, "t", "incoming", A100);
        assertThat(evicted(s)).as(() -> KaiScenarios.state(s)).isEmpty();
        assertThat(movedTo(s)).containsExactly("h-0");
    }

    @Test
    void preemptTryNextFlavor() {
        // Kueue "preempt try next flavor" (default whenCanPreempt TryNextFlavor): one 10, two 10, usage one 2,
        // request 9: one would need preemption, two fits: two. Scaled: 4 and 4, usage 2, request 3. Quotient agrees:
        // the H100 group's guarantee has no room for 3, the A100 group's has and its GPUs are idle.
        Scenario s = twoOfFourH100sUsed(0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 3, 0), A100);
    }

    /** t guaranteed 4 H100s and 4 A100s, running two H100 jobs of the priority given. */
    private static Scenario twoOfFourH100sUsed(int priority) {
        Scenario s = flavors(4, 4, 0).team(cq("t", quota(H100, 4), quota(A100, 4)));
        units(s, "t", "u", H100, 2, priority);
        return s;
    }

    @Test
    void preemptBeforeTryNextFlavor() {
        // Kueue "preempt before try next flavor" (whenCanPreempt MayStopSearch; also "...; using
        // WhenCanBorrow=MayStopSearch,WhenCanPreempt=MayStopSearch"): same quotas, Kueue stops at one in mode
        // Preempt. DIFFERENCE by rule: Quotient has no such setting and always tries the next group before it
        // preempts (whenCanPreempt TryNextFlavor): the job runs on the idle A100s and nothing is evicted.
        Scenario s = twoOfFourH100sUsed(-1);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 3, 0), A100);
    }

    @Test
    void borrowTryNextFlavorFoundTheFirstFlavor() {
        // Kueue "borrow try next flavor, found the first flavor" (TryNextFlavor both): t one nominal 10,
        // borrowingLimit 1; two nominal 1; partner one 1; usage one 2; request 9: two cannot hold 9, one fits by
        // borrowing 1: one. Scaled: t one 4 (max 5), two 1; partner one 1 (5 H100s, 1 A100); usage 2, request 3.
        // Quotient agrees: no group's guarantee has room for 3, the job borrows where GPUs are idle.
        Scenario s = borrowOrNext(1);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 3, 0), H100);
    }

    @Test
    void borrowTryNextFlavorFoundTheSecondFlavor() {
        // Kueue "borrow try next flavor, found the second flavor": as above with two nominal 10: one would borrow,
        // two fits within nominal: two. Scaled: two 4 (4 A100s). Quotient agrees: the A100 group has room.
        Scenario s = borrowOrNext(4);
        s.deploy(Scenario.job("t", "incoming", 3, 0));
        runsOn(s, "t", "incoming", A100);
    }

    /** t one 4 (max 5) holding 2, two as given (as many A100s); partner one 1: 5 H100s. */
    private static Scenario borrowOrNext(int a100) {
        Scenario s = flavors(5, a100, 0)
                .team(cq("t", quota(H100, 4, 1), quota(A100, a100)))
                .team(cq("partner", quota(H100, 1)));
        units(s, "t", "u", H100, 2, 0);
        return s;
    }

    @Test
    void borrowBeforeTryNextFlavor() {
        // Kueue "borrow before try next flavor" (default whenCanBorrow Borrow): the same quotas, Kueue takes one,
        // borrowing 1. DIFFERENCE by rule: Quotient skips a group whose guarantee has no room for the job before it
        // borrows (whenCanBorrow TryNextFlavor): the job runs within t's A100 guarantee, borrowing nothing.
        Scenario s = borrowOrNext(4);
        s.deploy(Scenario.job("t", "incoming", 3, 0));
        runsOn(s, "t", "incoming", A100);
        assertThat(s.run.placement("t", "incoming").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
    }

    @Test
    void borrowingWhilePreemptionIsNeededTryNextFlavor() {
        // Kueue "when borrowing while preemption is needed for flavor one; WhenCanBorrow=TryNextFlavor" (and
        // "...,WhenCanPreempt=MayStopSearch"): t one nominal 0 (borrowingLimit 12), two 12; partner one 12, usage
        // 10; request 12: two. Scaled by 1/3: 4 H100s (partner holds 3), 4 A100s, request 4. Quotient agrees.
        partnerBelowItsH100sNeedsTheNextFlavor();
    }

    /** t: one 0 (max 4), two 4; partner one 4, holding 3 at priority -1: t's 4-GPU job runs on the A100s. */
    private static void partnerBelowItsH100sNeedsTheNextFlavor() {
        Scenario s = flavors(4, 4, 0)
                .team(cq("t", quota(H100, 0, 4), quota(A100, 4)))
                .team(cq("partner", quota(H100, 4)));
        units(s, "partner", "p", H100, 3, -1);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), A100);
    }

    @Test
    void borrowingWhilePreemptionIsNeededMayStopSearch() {
        // Kueue "when borrowing while preemption is needed for flavor one; WhenCanBorrow=MayStopSearch" (and the
        // three variants with no borrowingLimit or WhenCanPreempt=MayStopSearch): Kueue stops at one in mode Preempt
        // (borrowWithinCohort LowerPriority takes the partner's lower-priority workloads though it is within its
        // nominal quota). DIFFERENCE by rule: Quotient has no borrowWithinCohort and tries the next group first: the
        // job runs within t's A100 guarantee and the partner keeps its H100s.
        partnerBelowItsH100sNeedsTheNextFlavor();
    }

    @Test
    void borrowingLimitExceedsTheQuotaAvailableInTheCohort() {
        // Kueue "when borrowing while preemption is needed, but borrowingLimit exceeds the quota available in the
        // cohort": t one nominal 0, borrowingLimit 12; partner one 11, usage 10; request 12 > 11: NoFit. Scaled:
        // partner 3 of 3 H100s, holding 2; t max 4; request 4. Quotient agrees: the job waits, nothing is evicted.
        Scenario s = flavors(3, 0, 0).team(cq("t", quota(H100, 0, 4))).team(cq("partner", quota(H100, 3)));
        units(s, "partner", "p", H100, 2, -1);
        s.deploy(Scenario.job("t", "incoming", 4, 0));
        waits(s, "t/incoming");
    }

    @Test
    void cannotPreemptInCohortForTheFirstFlavorTriesTheSecond() {
        // Kueue "cannot preempt in cohort (oracle returns None) for the first flavor, tries the second flavor (which
        // fits)" (and its MayStopSearch variant): t one and two nominal 0, borrowingLimit 2; partner one 2 (usage 2),
        // two 2 (idle); request 2: one has no candidates (the partner is within nominal), two fits by borrowing: two.
        // Quotient agrees: the partner's H100 jobs are inside its guarantee, t borrows the idle A100s.
        Scenario s = flavors(2, 2, 0)
                .team(cq("t", quota(H100, 0, 2), quota(A100, 0, 2)))
                .team(cq("partner", quota(H100, 2), quota(A100, 2)));
        units(s, "partner", "p", H100, 2, -1);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 2, 0), A100);
    }

    /** The nodes the plans moved jobs to. */
    static List<String> movedTo(Scenario s) {
        return s.run.plans.stream()
                .flatMap(p -> p.actionsOf(PlanAction.Move.class).stream())
                .map(m -> m.to().node())
                .toList();
    }

    // --- TestReclaimBeforePriorityPreemption: uno, due, tre (H100, A100, L40S), 10 GPUs each, scaled to 4; t
    // nominal in each, other 0 in each; t withinClusterQueue and reclaimWithinCohort LowerPriority, whenCanPreempt
    // TryNextFlavor; request 10, scaled to 4. t's own usage is priority -1 (so that priority preemption is
    // possible), other's priority 0.

    private static Scenario unoDueTre() {
        return flavors(4, 4, 4)
                .team(cq("t", quota(H100, 4), quota(A100, 4), quota(L40S, 4)))
                .team(cq("other", quota(H100, 0), quota(A100, 0), quota(L40S, 0)));
    }

    @Test
    void selectFirstFlavorWhichFits() {
        // Kueue "Select first flavor which fits": t uses 1 of uno, other 1 of due: tre fits: tre. Quotient agrees.
        Scenario s = unoDueTre();
        admitted(s, "t", "mine", H100, 1, -1);
        admitted(s, "other", "borrowed", A100, 1, 0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), L40S);
    }

    @Test
    void selectFirstFlavorWhereGpuReclamationIsPossible() {
        // Kueue "Select first flavor where gpu reclamation is possible": t uses 1 of uno, other 1 of due and 1 of
        // tre: uno needs priority preemption, due reclamation: due, reclaiming other's workload. Quotient agrees on
        // the flavor and frees it more gently (a rule of its reclaim: a borrower's job moves to idle GPUs rather
        // than being evicted when a node it may use has room): other's job moves to the idle H100s.
        Scenario s = unoDueTre();
        admitted(s, "t", "mine", H100, 1, -1);
        admitted(s, "other", "onDue", A100, 1, 0);
        admitted(s, "other", "onTre", L40S, 1, 0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), A100);
        assertThat(movedTo(s)).containsExactly("h-0");
    }

    @Test
    void selectFirstFlavorWhenFlavorFungibilityIsDisabled() {
        // Kueue "Select first flavor when flavor fungibility is disabled" (whenCanPreempt MayStopSearch; also its
        // "deprecated" twin): as above, Kueue stops at uno and preempts t's own lower-priority workload. DIFFERENCE
        // by rule: Quotient always tries the next group (TryNextFlavor): it takes the A100 group, where t is below
        // its guarantee and other borrows (other's job moves to idle H100s), and t's own job runs on.
        Scenario s = unoDueTre();
        admitted(s, "t", "mine", H100, 1, -1);
        admitted(s, "other", "onDue", A100, 1, 0);
        admitted(s, "other", "onTre", L40S, 1, 0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), A100);
        assertThat(s.running()).contains("t/mine");
    }

    @Test
    void selectFirstFlavorWherePriorityBasedPreemptionIsPossible() {
        // Kueue "Select first flavor where priority based preemption is possible": t uses 1 of each flavor; no
        // flavor fits without preemption and none has another queue's workloads: uno, preempting t's own workload
        // there. DIFFERENCE by rule (the fungibility rule's move): Quotient takes the same flavor without a
        // preemption, moving t's H100 job to an idle A100 (t's A100 guarantee has room), and every job runs.
        Scenario s = unoDueTre();
        admitted(s, "t", "onUno", H100, 1, -1);
        admitted(s, "t", "onDue", A100, 1, -1);
        admitted(s, "t", "onTre", L40S, 1, -1);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), H100);
        assertThat(movedTo(s)).containsExactly("a-0");
    }

    // --- TestHierarchical: flavors one, two, three (H100, A100, L40S); cohorts three > two > one, each with 4 of its
    // flavor; t (in one) and other (in two) nominal 0 everywhere. Departments do not nest, so the cohorts' quotas are
    // GPUs no team is guaranteed: these cases only borrow idle GPUs.

    @Test
    void selectTheTopFlavor() {
        // Kueue "Select the top flavor": t uses 4 of one, other 4 of two; request 4: three.
        Scenario s = flavors(4, 4, 4)
                .team(cq("t", quota(H100, 0), quota(A100, 0), quota(L40S, 0)))
                .team(cq("other", quota(H100, 0), quota(A100, 0), quota(L40S, 0)));
        admitted(s, "t", "mine", H100, 4, 0);
        admitted(s, "other", "theirs", A100, 4, 0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), L40S);
    }

    @Test
    void selectTheFirstFlavorWhichFits() {
        // Kueue "Select the first flavor which fits": t uses 4 of one; request 4: two (the first with room).
        Scenario s = flavors(4, 4, 4)
                .team(cq("t", quota(H100, 0), quota(A100, 0), quota(L40S, 0)))
                .team(cq("other", quota(H100, 0), quota(A100, 0), quota(L40S, 0)));
        admitted(s, "t", "mine", H100, 4, 0);
        s.deploy(Scenario.job("t", "incoming", 4, 0));
        runsOn(s, "t", "incoming", A100);
    }

    @Test
    void selectDeeperBorrowingFlavorWhenShallowerHasNoPreemptionCandidates() {
        // Kueue "Select deeper-borrowing flavor that fits when shallower-borrowing flavor has no preemption
        // candidates" (PreemptionOverBorrowing): t one nominal 4, borrowingLimit 0, using 4; request 4: one has no
        // candidates, two fits: two. Quotient agrees: t is at its H100 maximum, and borrows idle GPUs elsewhere.
        Scenario s = flavors(4, 4, 4)
                .team(cq("t", quota(H100, 4, 0), quota(A100, 0), quota(L40S, 0)))
                .team(cq("other", quota(H100, 0), quota(A100, 0), quota(L40S, 0)));
        admitted(s, "t", "mine", H100, 4, 0);
        landsWithoutEviction(s, Scenario.job("t", "incoming", 4, 0), A100);
    }
}

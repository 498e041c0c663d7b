package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KueueExtraScenarios.cq;
import static io.quotient.core.scheduling.KueueExtraScenarios.dept;
import static io.quotient.core.scheduling.KueueExtraScenarios.group;
import static io.quotient.core.scheduling.KueueExtraScenarios.pinned;
import static io.quotient.core.scheduling.KueueExtraScenarios.place;
import static io.quotient.core.scheduling.KueueExtraScenarios.plain;
import static io.quotient.core.scheduling.KueueExtraScenarios.protectedAdmitted;
import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.evicted;
import static io.quotient.core.scheduling.KueueScenarios.wl;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's {@code pkg/scheduler/scheduler_fair_sharing_test.go}, {@code TestScheduleForFairSharing}, translated with
 * {@link KueueScenarios}'s mapping: one scheduling cycle with fair sharing on; the pending workloads wait together and
 * one re-queue decides them ({@link VolcanoScenarios#waiting}, in Kueue's creation order). Most of its ClusterQueues
 * have no preemption policy, so their teams opt out of fair-share reclaim, and a running workload Kueue could not
 * preempt there is protected by a minimum runtime where Quotient's guarantee reclaim (which has no {@code Never})
 * would otherwise take it: the case is then about who gets the idle GPUs. Cohorts without quota of their own that
 * the case relies on as a level (its tournament compares them) become departments guaranteed their subtree quota.
 */
class KueueScheduleForFairSharingScenariosTest {

    // ---- TestScheduleForFairSharing ----

    @Test
    void scheduleWorkloadWithLowestShareFirst() {
        // Kueue "with fair sharing: schedule workload with lowest share first": cohort eng {eng-alpha (50,
        // borrowingLimit 50), eng-beta (50, borrowingLimit 10), eng-shared (10, borrowingLimit 0)}, 110 on-demand
        // CPUs; eng-alpha runs all_nominal (50), eng-beta borrowing (55); pending older_new (eng-beta, 1, a minute
        // older) and new (eng-alpha, 5). Kueue: new is admitted (eng-alpha borrows less), older_new stays pending.
        Scenario s = Scenario.nodes(110)
                .team(cq("eng-alpha", 50, 50, 1, false))
                .team(cq("eng-beta", 50, 10, 1, false))
                .team(cq("eng-shared", 10, 0, 1, false));
        admitted(s, "eng-alpha", "all_nominal", 50, 0);
        admitted(s, "eng-beta", "borrowing", 55, 0);
        VolcanoScenarios.waiting(s, wl("eng-beta", "older_new", 1, 0), wl("eng-alpha", "new", 5, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("eng-alpha/new");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactly("eng-beta/older_new");
    }

    @Test
    void nominalFirstOrderingAdmitsWorkloadWithinNominalDespiteHigherShare() {
        // Kueue "with fair sharing: nominal-first ordering admits workload fitting within nominal despite higher CQ
        // DRS": cohort fs-nom {fs-nom-a (on-demand 50 + 0, spot 50 + 50), fs-nom-b (on-demand 10 + 50, spot 50 +
        // 0)}; flavors as model groups (on-demand: H100, 60 GPUs; spot: A100, 100 GPUs). fs-nom-a runs spot-heavy
        // (80 spot: borrows 30), fs-nom-b light-usage (5 on-demand); pending borrow-wl (fs-nom-b, 15, older) and
        // nom-wl (fs-nom-a, 45); both land on on-demand (the first flavor). Kueue: nom-wl is admitted (within
        // fs-nom-a's on-demand nominal), borrow-wl stays pending.
        List<NodeSpec> nodes = List.of(
                new NodeSpec("h-0", 128_000, 1_048_576, 60, H100, 81_920),
                new NodeSpec("a-0", 128_000, 1_048_576, 100, A100, 81_920));
        Scenario s = Scenario.on(nodes);
        s.team(ModelGuaranteeScenariosTest.split("fs-nom-a", group(H100, 50, 50), group(A100, 50, 100)));
        s.team(ModelGuaranteeScenariosTest.split("fs-nom-b", group(H100, 10, 60), group(A100, 50, 50)));
        place(s, pinned("fs-nom-a", "spot-heavy", 80, A100), "a-0");
        place(s, pinned("fs-nom-b", "light-usage", 5, H100), "h-0");
        VolcanoScenarios.waiting(s, pinned("fs-nom-b", "borrow-wl", 15, H100), pinned("fs-nom-a", "nom-wl", 45, H100));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("fs-nom-a/nom-wl");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactly("fs-nom-b/borrow-wl");
        assertThat(evicted(s)).isEmpty();
    }

    @Test
    void hierarchicalNominalFirstPrefersNonBorrowingSubtree() {
        // Kueue "with fair sharing: hierarchical nominal-first prefers non-borrowing subtree": root {Cohort-A (10)
        // {cq-a (0)}, Cohort-B (no quota) {cq-b (5), cq-c (0)}}: departments A (guaranteed 10) and B (its subtree,
        // 5), 15 GPUs. cq-c runs c0 (10; Kueue cannot preempt it here: protected); pending wl-a (cq-a, 5) and wl-b
        // (cq-b, 5). Kueue: wl-a is admitted (Cohort-A does not borrow, Cohort-B would), wl-b stays pending.
        //
        // Quotient agrees since a job within its team's guarantee is decided first only while its department, with
        // it, stays within the department's guarantee (GroupDecision.inQuota), and the borrowing order places a team
        // first by its department's position (SharePosition.within): wl-b (department B, with it, 15 of 5) and wl-a
        // are both borrowers, and A, borrowing nothing, comes before B, borrowing 5. Before, wl-b was decided first
        // (within cq-b's 5) and took the idle GPUs; wl-a found none.
        Department a = dept("Cohort-A", 10, 1);
        Department b = dept("Cohort-B", 5, 1);
        Scenario s = Scenario.nodes(15)
                .team(plain("cq-a", 0).withDepartment(a))
                .team(plain("cq-b", 5).withDepartment(b))
                .team(plain("cq-c", 0).withDepartment(b));
        protectedAdmitted(s, "cq-c", "c0", 10);
        VolcanoScenarios.waiting(s, wl("cq-a", "wl-a", 5, 0), wl("cq-b", "wl-b", 5, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("cq-a/wl-a", "cq-c/c0");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactly("cq-b/wl-b");
    }

    @Test
    void hierarchicalNominalFirstWithMixedClusterQueueAndCohortQuotas() {
        // Kueue "with fair sharing: hierarchical nominal-first with mixed CQ and cohort quotas": root {Cohort-A (10)
        // {cq-a1 (5), cq-a2 (3)}, Cohort-B (10) {cq-b (5), cq-c (3)}}: departments guaranteed 18 each, 36 GPUs;
        // cq-a2 runs a2-admitted (6), cq-c c-admitted (20, protected); pending wl-a1 (cq-a1, 7) and wl-b (cq-b, 4).
        // Kueue: wl-a1 is admitted (Cohort-A 13 of 18, not borrowing; Cohort-B would be at 24 of 18), wl-b waits.
        //
        // Quotient agrees since the two fixes named in hierarchicalNominalFirstPrefersNonBorrowingSubtree: wl-b is
        // decided in the borrowing order (department B, with it, 24 of 18), where department A (6 of 18) comes
        // first. Before, wl-b took 4 of the 10 idle GPUs first and wl-a1 found 6.
        Department a = dept("Cohort-A", 18, 1);
        Department b = dept("Cohort-B", 18, 1);
        Scenario s = Scenario.nodes(36)
                .team(plain("cq-a1", 5).withDepartment(a))
                .team(plain("cq-a2", 3).withDepartment(a))
                .team(plain("cq-b", 5).withDepartment(b))
                .team(plain("cq-c", 3).withDepartment(b));
        admitted(s, "cq-a2", "a2-admitted", 6, 0);
        protectedAdmitted(s, "cq-c", "c-admitted", 20);
        VolcanoScenarios.waiting(s, wl("cq-a1", "wl-a1", 7, 0), wl("cq-b", "wl-b", 4, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("cq-a1/wl-a1");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactly("cq-b/wl-b");
        assertThat(evicted(s)).isEmpty();
    }

    @Test
    void hierarchicalFairSharingSchedulesTheWorkloadThatWinsTheTournament() {
        // Kueue "hierarchical fair sharing schedule workload which wins tournament": A (200) {B {d (0), e (0)}, C
        // {f (0), g (0)}}: departments B and C guaranteed nothing, 200 GPUs no team is guaranteed. d runs d0 (10),
        // e e0 (20), g g0 (100); pending d1 (70), e1 (61), f1 (1), g1 (1). Kueue: d1 is admitted (after it B holds
        // 100, less than C would after f1 or g1, 101; within B, d after d1 80 < e after e1 81); e1, f1, g1 stay
        // pending (no GPU is left).
        //
        // Quotient agrees since the borrowing order places a team first by its department's position (what the
        // department borrows per unit of its weight, SharePosition.within), then by its own: B borrows 30, C 100, so
        // B's d1 goes first (d 10 before e 20). Before, the order read each team's position only and f1 (f borrows
        // nothing) went first, then e1 and g1, and d1 waited.
        tournament(Scenario.nodes(200), dept("B", 0, 1), dept("C", 0, 1));
    }

    @Test
    void theTournamentIsWonTheSameWayInAModelGroupsView() {
        // the same case where the departments declare a group for the cluster's one model (H100, guaranteed
        // nothing, no maximum), so the borrowing order reads positions per group (GroupShares.position): the
        // department's position in the group comes first there too. Before, the group's order read the teams' own
        // positions only, and f1 went first, then e1 and g1, while d1 waited
        ModelGuarantees h100 = new ModelGuarantees(List.of(group(H100, 0, Team.UNLIMITED)));
        tournament(
                Scenario.on(List.of(new NodeSpec("h-0", 400_000, 4_194_304, 200, H100, 81_920))),
                new Department("B", 0, Team.UNLIMITED, 1, h100),
                new Department("C", 0, Team.UNLIMITED, 1, h100));
    }

    private static void tournament(Scenario cluster, Department b, Department c) {
        Scenario s = cluster.team(plain("d", 0).withDepartment(b))
                .team(plain("e", 0).withDepartment(b))
                .team(plain("f", 0).withDepartment(c))
                .team(plain("g", 0).withDepartment(c));
        admitted(s, "d", "d0", 10, 0);
        admitted(s, "e", "e0", 20, 0);
        admitted(s, "g", "g0", 100, 0);
        VolcanoScenarios.waiting(
                s, wl("d", "d1", 70, 0), wl("e", "e1", 61, 0), wl("f", "f1", 1, 0), wl("g", "g1", 1, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("d/d1");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactlyInAnyOrder("e/e1", "f/f1", "g/g1");
    }

    @Test
    void fairSharingSchedulesTheWorkloadWithLowestShareAfterAdmission() {
        // Kueue "fair sharing schedule workload with lowest drf after admission": A (100) {b (0), c (0)}; b runs b0
        // (10); pending b1 (50) and c1 (75). Kueue: b1 is admitted (b after it 60 < c after c1 75), c1 waits.
        //
        // DIFFERENCE (docs/fairness.md, "(a) Who borrows first": "Kueue compares the share *with* the workload
        // admitted, Quotient the share before it"): c borrows nothing, b 10, so c1 goes first and takes 75 of the 90
        // idle GPUs; b1 waits.
        Scenario s = Scenario.nodes(100).team(plain("b", 0)).team(plain("c", 0));
        admitted(s, "b", "b0", 10, 0);
        VolcanoScenarios.waiting(s, wl("b", "b1", 50, 0), wl("c", "c1", 75, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).contains("c/c1");
        assertThat(s.pending()).as(() -> KaiScenarios.state(s)).containsExactly("b/b1");
    }

    @Test
    void fairSharingSchedulesSingletonClusterQueuesAndOneWithoutCohort() {
        // Kueue "fair sharing schedule singleton cqs and cq without cohort": cohort A (10) {a (0)}: department A
        // guaranteed 10; b (10) alone in cohort B; c (10) without cohort (it can use only its own 10: maxGpus 10);
        // 30 GPUs; a1, b1, c1 (10 each) pending. Kueue: all three are admitted.
        Scenario s = Scenario.nodes(30)
                .team(plain("a", 0).withDepartment(dept("A", 10, 1)))
                .team(plain("b", 10))
                .team(cq("c", 10, 0, 1, false));
        VolcanoScenarios.waiting(s, wl("a", "a1", 10, 0), wl("b", "b1", 10, 0), wl("c", "c1", 10, 0));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).containsExactly("a/a1", "b/b1", "c/c1");
    }

    @Test
    void fairSharingSchedulesTheEarliestTimestampFirst() {
        // Kueue "fair sharing schedule earliest timestamp first": A (10) {b (0), c (0)}; b1 (priority 101, created a
        // second after c1) and c1 (101), 10 each. Kueue: c1 is admitted, b1 waits.
        Scenario s = Scenario.nodes(10).team(plain("b", 0)).team(plain("c", 0));
        VolcanoScenarios.waiting(s, wl("c", "c1", 10, 101), wl("b", "b1", 10, 101));
        assertThat(s.running()).as(() -> KaiScenarios.state(s)).containsExactly("c/c1");
        assertThat(s.pending()).containsExactly("b/b1");
    }

    @Test
    void fairSharingPreemptsFromTheClusterQueuesWithTheHighestShare() {
        // Kueue "with fair sharing: preempt workload from CQ with the highest share" (quantities / 10): cohort eng
        // {eng-alpha (on-demand 5, borrowingLimit 5), eng-beta (5, borrowingLimit 1), eng-gamma (5)}, 15 on-demand
        // GPUs; eng-alpha runs alpha1..alpha4 (2 each: 3 borrowed; its spot workload, within its spot nominal, is
        // left out), eng-gamma gamma1 (1) and gamma2..gamma4 (2 each: 2 borrowed; its borrowing limit 0, which its
        // admitted workloads already exceed, is left out); preemptor (eng-beta, 3). Kueue: alpha1 and gamma1 are
        // preempted (reclamation), each ClusterQueue ending 1 above its nominal; taking two of either would leave
        // it below its nominal. Quotient: the alpha jobs are alike, so any one of them.
        Scenario s = Scenario.nodes(15)
                .team(cq("eng-alpha", 5, 5, 1, true))
                .team(cq("eng-beta", 5, 1, 1, true))
                .team(cq("eng-gamma", 5, null, 1, true));
        for (int i = 1; i <= 4; i++) {
            admitted(s, "eng-alpha", "alpha" + i, 2, 0);
        }
        admitted(s, "eng-gamma", "gamma1", 1, 0);
        for (int i = 2; i <= 4; i++) {
            admitted(s, "eng-gamma", "gamma" + i, 2, 0);
        }
        s.deploy(wl("eng-beta", "preemptor", 3, 0));
        assertThat(evicted(s)).as(() -> KaiScenarios.state(s)).hasSize(2).contains("eng-gamma/gamma1");
        assertThat(evicted(s)).anyMatch(j -> j.startsWith("eng-alpha/alpha"));
        assertThat(s.running()).contains("eng-beta/preemptor");
    }

    @Test
    void multiplePreemptionsWithinClusterQueuesWhenFairSharing() {
        // Kueue "multiple preemptions within cq when fair sharing": cohort other {other-alpha, other-beta,
        // other-gamma (2 each, LowerPriority within), resource-bank (3)}, 9 GPUs; each of the three runs one
        // workload of 3 (priority 0); each gets a preemptor of 3 (priority 100). Kueue: a1, b1 and c1 are preempted,
        // each within its own ClusterQueue, for the preemptors.
        Scenario s = Scenario.nodes(9)
                .team(cq("other-alpha", 2, null, 1, true))
                .team(cq("other-beta", 2, null, 1, true))
                .team(cq("other-gamma", 2, null, 1, true))
                .team(plain("resource-bank", 3));
        admitted(s, "other-alpha", "a1", 3, 0);
        admitted(s, "other-beta", "b1", 3, 0);
        admitted(s, "other-gamma", "c1", 3, 0);
        VolcanoScenarios.waiting(
                s,
                wl("other-alpha", "preemptor", 3, 100),
                wl("other-beta", "preemptor", 3, 100),
                wl("other-gamma", "preemptor", 3, 100));
        assertThat(evicted(s))
                .as(() -> KaiScenarios.state(s))
                .containsExactlyInAnyOrder("other-alpha/a1", "other-beta/b1", "other-gamma/c1");
        assertThat(s.running())
                .containsExactlyInAnyOrder("other-alpha/preemptor", "other-beta/preemptor", "other-gamma/preemptor");
    }
}

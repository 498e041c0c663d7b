package io.quotient.core.scheduling;

import static io.quotient.core.model.WithinTeamPreemption.NEVER;
import static io.quotient.core.scheduling.KueueExtraScenarios.count;
import static io.quotient.core.scheduling.KueueExtraScenarios.dept;
import static io.quotient.core.scheduling.KueueExtraScenarios.finish;
import static io.quotient.core.scheduling.KueueExtraScenarios.group;
import static io.quotient.core.scheduling.KueueExtraScenarios.pendingOf;
import static io.quotient.core.scheduling.KueueExtraScenarios.pinned;
import static io.quotient.core.scheduling.KueueExtraScenarios.place;
import static io.quotient.core.scheduling.KueueExtraScenarios.plain;
import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.preempts;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static io.quotient.core.scheduling.KueueScenarios.wl;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue cases not in {@link KueuePreemptionScenariosTest}, {@link KueueFairSharingScenariosTest} or
 * {@link KueueCohortScenariosTest}, translated with {@link KueueScenarios}'s mapping:
 *
 * <ul>
 *   <li>{@code pkg/scheduler/scheduler_fair_sharing_test.go}, {@code TestScheduleForFairSharing}: one scheduling
 *       cycle with fair sharing on; the pending workloads wait together and one re-queue decides them
 *       ({@link VolcanoScenarios#waiting}, in Kueue's creation order). Most of its ClusterQueues have no preemption
 *       policy, so their teams opt out of fair-share reclaim, and a running workload Kueue could not preempt there is
 *       protected by a minimum runtime where Quotient's guarantee reclaim (which has no {@code Never}) would otherwise
 *       take it: the case is then about who gets the idle GPUs;
 *   <li>{@code pkg/scheduler/preemption/preemption_fair_test.go}, {@code TestFairPreemptions}: the three cases with
 *       2.5- and 3.5-CPU workloads left out before, translated with every quantity doubled (a CPU is two GPUs), and
 *       the flavor case "nominal first", with flavors as GPU model groups;
 *   <li>{@code test/integration/singlecluster/scheduler/fairsharing/fair_sharing_test.go}: the sequences of
 *       submissions and completions, each step's admitted counts asserted.
 * </ul>
 *
 * <p>Cohorts without quota of their own that the Kueue case relies on as a level (its tournament compares them)
 * become departments guaranteed their subtree quota, as cohorts with quota do.
 */
class KueueExtraScenariosTest {

    // ---- TestFairPreemptions, the half-CPU cases (every quantity doubled) ----

    /** Kueue's cohort {@code all}: a, b, c (nominal 3 CPUs: 6 GPUs), preemptible (0), 18 GPUs. */
    private static Scenario allDoubled() {
        return Scenario.nodes(18)
                .team(KueueScenarios.fairCq("a", 6, 1))
                .team(KueueScenarios.fairCq("b", 6, 1))
                .team(KueueScenarios.fairCq("c", 6, 1))
                .team(KueueScenarios.fairCq("preemptible", 0, 1));
    }

    @Test
    void preferToPreemptWorkloadsThatDoNotMakeTheTargetHaveTheBiggestShare() {
        // Kueue "prefer to preempt workloads that don't make the target CQ have the biggest share" (x2): b runs b1
        // (4), b2 (2), b3 (4), c runs c1 (2); a_incoming (7). Kueue: b2 is preempted (a ends 1 above its nominal,
        // b 2 above). Quotient: fair shares a 7, b 9, c 2.
        Scenario s = allDoubled();
        admitted(s, "b", "b1", 4, 0);
        admitted(s, "b", "b2", 2, 0);
        admitted(s, "b", "b3", 4, 0);
        admitted(s, "c", "c1", 2, 0);
        s.deploy(wl("a", "a_incoming", 7, 0));
        preempts(s, "a/a_incoming", "b/b2");
    }

    @Test
    void preemptFromDifferentClusterQueuesIfTheEndResultHasASmallerMaxShare() {
        // Kueue "preempt from different cluster queues if the end result has a smaller max share" (x2): b runs b1
        // (4), b2 (5); c runs c1 (4), c2 (5); a_incoming (7). Kueue: b1 and c1 are preempted (a ends 1 above its
        // nominal, b and c 1 below theirs).
        //
        // DIFFERENCE (docs/user-guide.md, "Fair-share reclaim": "The claimant ends at most at its share"; as in
        // KueueFairSharingScenariosTest.preemptFromTargetAndOthersEvenIfOverNominal): the fair shares are the
        // guarantees, 6 each; a with its job would hold 7, beyond its guarantee and its share, so no rule lets it
        // take anything. a_incoming waits and nothing is evicted.
        Scenario s = allDoubled();
        admitted(s, "b", "b1", 4, 0);
        admitted(s, "b", "b2", 5, 0);
        admitted(s, "c", "c1", 4, 0);
        admitted(s, "c", "c2", 5, 0);
        s.deploy(wl("a", "a_incoming", 7, 0));
        waits(s, "a/a_incoming");
    }

    @Test
    void theScenarioAboveDoesNotFlap() {
        // Kueue "scenario above does not flap" (x2): a runs a1 (7), b b2 (5), c c2 (5); b_incoming (4). Kueue: none.
        Scenario s = allDoubled();
        admitted(s, "a", "a1", 7, 0);
        admitted(s, "b", "b2", 5, 0);
        admitted(s, "c", "c2", 5, 0);
        s.deploy(wl("b", "b_incoming", 4, 0));
        waits(s, "b/b_incoming");
    }

    @Test
    void nominalFirstWorkloadWithinNominalCanPreemptDespiteHighAggregateShare() {
        // Kueue "nominal first: workload fitting within nominal can preempt despite high aggregate DRS": flavors
        // premium (H100, 3 GPUs) and cheap (A100, 6 GPUs) as model groups; a: premium 3, cheap 0; b: premium 0,
        // cheap 6. a runs a_prem1, a_prem2 (premium) and a_cheap1..5 (cheap: borrowed); b runs b_prem1 (premium:
        // borrowed); a_incoming (1, premium). Kueue: b_prem1 is preempted (reclamation: a is within its premium
        // nominal).
        List<NodeSpec> nodes = List.of(
                new NodeSpec("h-0", 128_000, 1_048_576, 3, H100, 81_920),
                new NodeSpec("a-0", 128_000, 1_048_576, 6, A100, 81_920));
        Scenario s = Scenario.on(nodes);
        s.team(ModelGuaranteeScenariosTest.split("a", group(H100, 3, Team.UNLIMITED), group(A100, 0, Team.UNLIMITED)));
        s.team(ModelGuaranteeScenariosTest.split("b", group(H100, 0, Team.UNLIMITED), group(A100, 6, Team.UNLIMITED)));
        place(s, pinned("a", "a_prem1", 1, H100), "h-0");
        place(s, pinned("a", "a_prem2", 1, H100), "h-0");
        for (int i = 1; i <= 5; i++) {
            place(s, pinned("a", "a_cheap" + i, 1, A100), "a-0");
        }
        place(s, pinned("b", "b_prem1", 1, H100), "h-0");
        s.deploy(pinned("a", "a_incoming", 1, H100));
        preempts(s, "a/a_incoming", "b/b_prem1");
    }

    // ---- fair_sharing_test.go (integration), step by step ----

    @Test
    void admitsWorkloadsRespectingFairShareWithPreemptionDisabled() {
        // Kueue integration "Preemption is disabled / Admits workloads respecting fair share": cohort all {a (3), b
        // (1), shared (4)}, 8 GPUs, no preemption. 10 workloads of 1 to a: 8 admitted, 2 pending. 5 to b: all
        // pending. 4 of a's finish: 1 more of a and 3 of b are admitted (a 5, b 3). 2 more of a's finish: the last
        // of a and 1 of b (a 4, b 4, 1 of b pending).
        //
        // DIFFERENCE at the second step only (KueueScenarios: Quotient always reclaims a guarantee, it has no Never
        // reclaim): b's first job is within b's guarantee of 1 and takes one of a's borrowed GPUs back, so b holds 1
        // and a 7 before the completions. From the third step on the counts are Kueue's.
        Scenario s = Scenario.nodes(8).team(plain("a", 3)).team(plain("b", 1)).team(plain("shared", 4));
        s.deployMany("a", "a", 10);
        assertThat(count(s, "a")).isEqualTo(8);
        assertThat(pendingOf(s, "a")).isEqualTo(2);
        s.deployMany("b", "b", 5);
        assertThat(count(s, "b")).as(() -> KaiScenarios.state(s)).isEqualTo(1);
        assertThat(count(s, "a")).isEqualTo(7);
        finish(s, "a", 4);
        s.settle(3);
        assertThat(count(s, "a")).as(() -> KaiScenarios.state(s)).isEqualTo(5);
        assertThat(count(s, "b")).isEqualTo(3);
        assertThat(pendingOf(s, "b")).isEqualTo(2);
        finish(s, "a", 2);
        s.settle(3);
        assertThat(count(s, "a")).as(() -> KaiScenarios.state(s)).isEqualTo(4);
        assertThat(pendingOf(s, "a")).isZero();
        assertThat(count(s, "b")).isEqualTo(4);
        assertThat(pendingOf(s, "b")).isEqualTo(1);
    }

    @Test
    void admitsWorkloadsRespectingFairShareWithPreemptionEnabled() {
        // Kueue integration "Preemption is enabled / Admits workloads respecting fair share": cohort all {a, b, c (3
        // each, reclaim Any, LowerPriority within)}, 9 GPUs. 10 workloads of 1 to a: 9 admitted. 5 to b: 4 of a's
        // are preempted and 4 of b's admitted (a 5, b 4: weighted shares 2/9 and 1/9). c0 (1) to c: one of a's is
        // preempted (a 4, b 4, c 1).
        Scenario s = Scenario.nodes(9)
                .team(KueueScenarios.fairCq("a", 3, 1))
                .team(KueueScenarios.fairCq("b", 3, 1))
                .team(KueueScenarios.fairCq("c", 3, 1));
        s.deployMany("a", "a", 10);
        assertThat(count(s, "a")).isEqualTo(9);
        s.deployMany("b", "b", 5);
        s.settle(3);
        assertThat(count(s, "a")).as(() -> KaiScenarios.state(s)).isEqualTo(5);
        assertThat(count(s, "b")).isEqualTo(4);
        s.deploy(wl("c", "c0", 1, 0));
        s.settle(3);
        assertThat(count(s, "a")).as(() -> KaiScenarios.state(s)).isEqualTo(4);
        assertThat(count(s, "b")).isEqualTo(4);
        assertThat(count(s, "c")).isEqualTo(1);
    }

    @Test
    void hierarchicalCohortsAdmitWorkloadsRespectingFairShare() {
        // Kueue integration "using hierarchical cohorts / admits workloads respecting fair share": root {first-left
        // {second-left {cqL (2)}, second-right {cqR (2)}}, first-right {bank (10)}}: department first-left
        // guaranteed its subtree's 4 (the second-level cohorts have no quota: cqL and cqR are its teams), the bank's
        // 10 guaranteed to nobody, 14 GPUs. 5 workloads of 1 to each, in turn. Kueue: all 10 are admitted.
        Department left = dept("first-left", 4, 1);
        Scenario s = Scenario.nodes(14)
                .team(plain("cq-l", 2).withDepartment(left))
                .team(plain("cq-r", 2).withDepartment(left));
        for (int i = 0; i < 5; i++) {
            s.deploy(wl("cq-l", "l" + i, 1, 0), wl("cq-r", "r" + i, 1, 0));
        }
        assertThat(count(s, "cq-l")).as(() -> KaiScenarios.state(s)).isEqualTo(5);
        assertThat(count(s, "cq-r")).isEqualTo(5);
    }

    @Test
    void hierarchicalCohortsPreemptWorkloadsToEnforceFairShare() {
        // Kueue integration "using hierarchical cohorts / preempts workloads to enforce fair share": root (12) {
        // best-effort (weight 0.5) {best-effort-queue}, research {chemistry {chemistry-queue}, physics
        // {physics-queue}, llm (weight 2) {llm-queue}}}: department research (guaranteed nothing), the four queues
        // guaranteed nothing, their cohorts' weights as theirs; 12 GPUs guaranteed to nobody. chemistry, physics
        // and llm reclaim (LowerPriority); no queue preempts within itself. best-effort and physics run 6
        // low-priority (-1) workloads each; then each queue gets 6 of priority 100, in turn. Kueue: best-effort 4,
        // chemistry 2, physics 2, llm 4 (best-effort and research 4 and 8 by weight 0.5 : 1; research's 8 by 1 : 1 :
        // 2).
        Department research = dept("research", 0, 1);
        Scenario s = Scenario.nodes(12)
                .team(new Team("best-effort", 0, Team.UNLIMITED, 0.5, 0, NEVER, true, null))
                .team(new Team("chemistry", 0, Team.UNLIMITED, 1, 0, NEVER, true, research))
                .team(new Team("physics", 0, Team.UNLIMITED, 1, 0, NEVER, true, research))
                .team(new Team("llm", 0, Team.UNLIMITED, 2, 0, NEVER, true, research));
        for (int i = 0; i < 6; i++) {
            s.deploy(wl("best-effort", "low" + i, 1, -1), wl("physics", "low" + i, 1, -1));
        }
        for (int i = 0; i < 6; i++) {
            for (String team : List.of("chemistry", "physics", "llm", "best-effort")) {
                s.deploy(wl(team, "high" + i, 1, 100));
            }
        }
        s.settle(20);
        assertThat(count(s, "best-effort")).as(() -> KaiScenarios.state(s)).isEqualTo(4);
        assertThat(count(s, "chemistry")).isEqualTo(2);
        assertThat(count(s, "physics")).isEqualTo(2);
        assertThat(count(s, "llm")).isEqualTo(4);
    }
}

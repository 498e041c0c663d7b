package io.quotient.core.scheduling;

import static io.quotient.core.model.WithinTeamPreemption.LOWER_PRIORITY;
import static io.quotient.core.model.WithinTeamPreemption.NEVER;
import static io.quotient.core.scheduling.KueueScenarios.admitted;
import static io.quotient.core.scheduling.KueueScenarios.evicted;
import static io.quotient.core.scheduling.KueueScenarios.preempts;
import static io.quotient.core.scheduling.KueueScenarios.waits;
import static io.quotient.core.scheduling.KueueScenarios.wl;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
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

    /** A ClusterQueue: nominal, borrowing limit (null: none), fair weight, whether it takes part in fair sharing. */
    private static Team cq(String name, int nominal, Integer borrowingLimit, double weight, boolean fairShare) {
        long max = borrowingLimit == null ? Team.UNLIMITED : (nominal + borrowingLimit) * 1000L;
        return new Team(name, nominal * 1000L, max, weight, 0, LOWER_PRIORITY, fairShare, null);
    }

    /** A ClusterQueue without preemption (Kueue's default policies): no fair-share reclaim, no preemption within. */
    private static Team plain(String name, int nominal) {
        return new Team(name, nominal * 1000L, Team.UNLIMITED, 1, 0, NEVER, false, null);
    }

    private static Department dept(String name, int subtreeQuota, double weight) {
        return new Department(name, subtreeQuota * 1000L, Team.UNLIMITED, weight);
    }

    /** A running workload Kueue's case cannot preempt (no preemption policy): inside a two-hour minimum runtime. */
    private static void protectedAdmitted(Scenario s, String team, String name, int gpus) {
        JobSpec spec = new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(),
                0,
                true,
                Duration.ofHours(2));
        place(s, spec, s.run.nodes.get(0).name());
    }

    /** Places {@code spec} on the first free GPUs of {@code node}, running for an hour. */
    private static void place(Scenario s, JobSpec spec, String node) {
        NodeSpec n = s.run.nodes.stream()
                .filter(x -> x.name().equals(node))
                .findFirst()
                .orElseThrow();
        Set<Integer> used = new HashSet<>();
        s.run.placed
                .values()
                .forEach(p -> p.replicas().stream()
                        .filter(r -> r.node().equals(node))
                        .forEach(r -> used.addAll(r.gpuIndices())));
        List<Integer> free = IntStream.range(0, n.gpuCount())
                .filter(g -> !used.contains(g))
                .boxed()
                .toList();
        int gpus = ((GpuRequest.WholeGpus) spec.gpu()).count();
        KaiScenarios.put(
                s,
                new PlacedJob(
                        spec,
                        node,
                        new ArrayList<>(free.subList(0, gpus)),
                        1000,
                        QuotaState.OVER_QUOTA,
                        s.run.now.minus(Duration.ofHours(1))));
    }

    private static JobSpec pinned(String team, String name, int gpus, String model) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(model),
                0,
                true,
                Duration.ZERO);
    }

    private static long count(Scenario s, String team) {
        return s.run.placed.keySet().stream().filter(j -> j.team().equals(team)).count();
    }

    private static long pendingOf(Scenario s, String team) {
        return s.run.pending.keySet().stream()
                .filter(j -> j.team().equals(team))
                .count();
    }

    private static void finish(Scenario s, String team, int jobs) {
        List<JobId> running = s.run.placed.keySet().stream()
                .filter(j -> j.team().equals(team))
                .limit(jobs)
                .toList();
        running.forEach(j -> s.run.finish(j.team(), j.name()));
    }

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
        s.team(grouped("fs-nom-a", group(H100, 50, 50), group(A100, 50, 100)));
        s.team(grouped("fs-nom-b", group(H100, 10, 60), group(A100, 50, 50)));
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
        Department b = dept("B", 0, 1);
        Department c = dept("C", 0, 1);
        Scenario s = Scenario.nodes(200)
                .team(plain("d", 0).withDepartment(b))
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
        s.team(grouped("a", group(H100, 3, Team.UNLIMITED), group(A100, 0, Team.UNLIMITED)));
        s.team(grouped("b", group(H100, 0, Team.UNLIMITED), group(A100, 6, Team.UNLIMITED)));
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

    // ---- model groups ----

    private static ModelGuarantee group(String model, int gpus, long maxGpus) {
        return new ModelGuarantee(
                ModelGroup.of(model), gpus * 1000L, maxGpus == Team.UNLIMITED ? Team.UNLIMITED : maxGpus * 1000L);
    }

    /** A ClusterQueue with a nominal quota per flavor (model group), fair-share reclaim on, reclaim Any. */
    private static Team grouped(String name, ModelGuarantee... groups) {
        ModelGuarantees g = new ModelGuarantees(List.of(groups));
        return new Team(
                name,
                g.guaranteedMilli(),
                Team.UNLIMITED,
                1.0,
                0,
                WithinTeamPreemption.LOWER_PRIORITY,
                true,
                null,
                null,
                g);
    }
}

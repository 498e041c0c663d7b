package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.pinned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fair share and borrowing order per GPU model group (issue 35) as scenario tables: when the quotas name model
 * groups, each group's idle GPUs are divided among the teams that want that group's models, the borrowing order
 * reads a team's position in the group its job would land in, and fair-share reclaim compares positions within the
 * group. Nodes {@code v-*} (V100), {@code h-*} (H100), {@code a-*} (A100); teams guaranteed nothing unless said.
 */
class GroupFairShareScenariosTest {

    static final String V100 = "V100-SXM2-32GB";

    private static NodeSpec node(String name, int gpus, String model) {
        return new NodeSpec(name, 128_000, 1_048_576, gpus, model, 81_920);
    }

    /** A team guaranteed nothing, weight 1, whose quota names a group with a maximum only (the cluster's groups). */
    private static Team withGroup(String name, String model, int maxGpus) {
        return Team.of(name, 0)
                .withModelGuarantees(new ModelGuarantees(
                        List.of(new ModelGuarantee(ModelGroup.of(model), 0, maxGpus * 1000L)))); // a cap only
    }

    private static void waiting(ClusterRun run, JobSpec job, int minutesAgo) {
        run.pending.put(job.id(), new PendingJob(job, run.now.minus(Duration.ofMinutes(minutesAgo))));
    }

    private static long heldOn(ClusterRun run, String team, String prefix) {
        return run.placed.values().stream()
                .filter(j -> j.spec().team().equals(team) && j.node().startsWith(prefix))
                .count();
    }

    private static List<String> evicted(ClusterRun run) {
        return run.plans.stream()
                .flatMap(p -> p.actionsOf(PlanAction.Evict.class).stream())
                .map(e -> e.job().toString())
                .toList();
    }

    /**
     * {@code heavy} borrows 6 V100s (every V100), {@code light} borrows 2 of the 3 H100s; one H100 is idle and both
     * wait for one GPU, {@code light}'s job longer.
     */
    private static ClusterRun heavyV100Borrower(boolean groups) {
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("v-0", 6, V100), node("h-0", 3, H100)));
        run.team(groups ? withGroup("heavy", V100, 6) : Team.of("heavy", 0)).team(Team.of("light", 0));
        for (int g = 0; g < 6; g++) {
            run.running("heavy", "v" + g, "v-0", g);
        }
        run.running("light", "h0", "h-0", 0);
        run.running("light", "h1", "h-0", 1);
        waiting(run, ClusterRun.job("light", "next", 1), 10);
        waiting(run, ClusterRun.job("heavy", "next", 1), 1);
        return run;
    }

    @Test
    void aTeamThatBorrowsManyV100sIsStillFirstForAnIdleH100() {
        // the job would land on the idle H100: in the H100 group heavy borrows nothing and light borrows 2
        ClusterRun run = heavyV100Borrower(true);
        run.requeue();
        assertThat(run.isPlaced("heavy", "next")).isTrue();
        assertThat(run.placement("heavy", "next").node()).isEqualTo("h-0");
        assertThat(run.isPlaced("light", "next")).isFalse();
        assertThat(run.reasons.get(ClusterRun.job("light", "next", 1).id())).contains("in H100-80GB");
    }

    @Test
    void withoutModelGroupsTheClusterWidePositionDecides() {
        // the flat cluster as before: heavy borrows 6 of the cluster, light 2, so light's job goes first
        ClusterRun run = heavyV100Borrower(false);
        run.requeue();
        assertThat(run.isPlaced("light", "next")).isTrue();
        assertThat(run.isPlaced("heavy", "next")).isFalse();
    }

    /**
     * 4 H100s and 4 V100s: {@code v} wants 8 V100s (holds 4), {@code b} holds every H100, {@code c} wants 2 H100s.
     * Across the cluster {@code v}'s V100 demand would take a third of the pool and leave {@code c} 1 H100 beyond
     * the hysteresis; per group the 4 H100s are divided between the two teams that want H100s only, 2 and 2.
     */
    private static ClusterRun h100Pool() {
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("h-0", 4, H100), node("v-0", 4, V100)));
        run.team(withGroup("v", V100, 8)).team(Team.of("b", 0)).team(Team.of("c", 0));
        for (int g = 0; g < 4; g++) {
            run.running("v", "v" + g, "v-0", g);
            run.running("b", "h" + g, "h-0", g);
            waiting(run, pinned("v", "more" + g, 1, V100), 5);
        }
        waiting(run, pinned("c", "c0", 1, H100), 5);
        waiting(run, pinned("c", "c1", 1, H100), 5);
        return run;
    }

    @Test
    void idleH100sAreDividedAmongTheTeamsWantingH100sOnly() {
        ClusterRun run = h100Pool();
        SharesProbe shares = SharesProbe.of(run);
        assertThat(shares.in(H100))
                .containsEntry("b", 2000L)
                .containsEntry("c", 2000L)
                .containsEntry("v", 0L);
        assertThat(shares.in(V100))
                .containsEntry("v", 4000L)
                .containsEntry("b", 0L)
                .containsEntry("c", 0L);
        run.requeue();
        run.advance(Duration.ofMinutes(1));
        run.requeue();
        assertThat(heldOn(run, "c", "h-")).isEqualTo(2);
        assertThat(heldOn(run, "b", "h-")).isEqualTo(2);
        assertThat(heldOn(run, "v", "v-")).isEqualTo(4);
        assertThat(evicted(run)).hasSize(2).allMatch(j -> j.startsWith("b/h"));
    }

    @Test
    void reclaimForFairnessInsideTheH100GroupDoesNotEvictA100Jobs() {
        // b borrows all 4 H100s and all 4 A100s; c (pinned to H100) reclaims its H100 share; b keeps every A100
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("h-0", 4, H100), node("a-0", 4, A100)));
        run.team(withGroup("b", A100, 8)).team(Team.of("c", 0));
        for (int g = 0; g < 4; g++) {
            run.running("b", "h" + g, "h-0", g);
            run.running("b", "a" + g, "a-0", g);
        }
        waiting(run, pinned("c", "c0", 1, H100), 5);
        waiting(run, pinned("c", "c1", 1, H100), 5);
        waiting(run, pinned("c", "c2", 1, H100), 5);
        run.requeue();
        run.advance(Duration.ofMinutes(1));
        run.requeue();
        assertThat(heldOn(run, "b", "a-")).isEqualTo(4);
        assertThat(heldOn(run, "c", "h-")).isEqualTo(2);
        assertThat(evicted(run)).hasSize(2).allMatch(j -> j.startsWith("b/h"));
        assertThat(run.reasons.get(ClusterRun.job("c", "c2", 1).id()))
                .startsWith(
                        "to borrow in H100-80GB: c holds 2 GPUs there and borrows only idle GPUs (fair share there 2"
                                + " GPUs, which this job would exceed)");
        assertThat(run.plans.stream().flatMap(p -> p.actionsOf(PlanAction.Evict.class).stream()))
                .allMatch(e -> e.reason().contains("in H100-80GB"));
    }

    @Test
    void anUnpinnedBorrowerGoesWhereItsTeamIsFurthestBelowItsShare() {
        // no GPU idle; b borrows 3 H100s and 1 A100, a borrows 1 H100 and 3 A100s; c's unpinned job reclaims in
        // the group where c is furthest below its share: both groups divide 4 GPUs among a, b and c, so c's share
        // is the same in both; the tie goes to the group name (A100 first), from the team above its share there (a)
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("h-0", 4, H100), node("a-0", 4, A100)));
        run.team(withGroup("a", A100, 8)).team(Team.of("b", 0)).team(Team.of("c", 0));
        run.running("b", "h0", "h-0", 0);
        run.running("b", "h1", "h-0", 1);
        run.running("b", "h2", "h-0", 2);
        run.running("a", "h3", "h-0", 3);
        run.running("b", "a0", "a-0", 0);
        run.running("a", "a1", "a-0", 1);
        run.running("a", "a2", "a-0", 2);
        run.running("a", "a3", "a-0", 3);
        waiting(run, ClusterRun.job("c", "c0", 1), 5);
        waiting(run, ClusterRun.job("c", "c1", 1), 5);
        run.requeue();
        assertThat(run.isPlaced("c", "c0")).isTrue();
        assertThat(run.placement("c", "c0").node()).isEqualTo("a-0");
        assertThat(evicted(run)).first().asString().startsWith("a/a");
    }

    @Test
    void decayedUsageCountsInTheGroupWhereTheTeamBorrowed() {
        // a borrowed the 4 H100s for the hour that just ended (half-life 1 h: its decayed usage there is 2 GPUs);
        // now a and b each want 4 H100s and 4 V100s: a gets less of the H100s (1 against 3) and half the V100s
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("h-0", 4, H100), node("v-0", 4, V100)));
        run.team(withGroup("a", V100, 8)).team(Team.of("b", 0));
        for (int g = 0; g < 4; g++) {
            run.running("a", "h" + g, "h-0", g);
        }
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory history = new UsageHistory(new FairShareSettings(Duration.ofHours(1), Duration.ofDays(1)), clock);
        history.record(UsageHistory.borrowedMilli(run.teams, List.copyOf(run.placed.values()), run.nodes));
        clock.advance(Duration.ofHours(1));
        run.placed.clear();
        history.record(UsageHistory.borrowedMilli(run.teams, List.of(), run.nodes));
        Map<String, Double> past = history.decayedMilli();
        assertThat(past.get(GroupShares.pastKey("a", ModelGroup.of(H100)))).isCloseTo(2000, within(1.0));
        assertThat(past).doesNotContainKey(GroupShares.pastKey("a", ModelGroup.of(V100)));
        for (String team : List.of("a", "b")) {
            for (int i = 0; i < 4; i++) {
                waiting(run, pinned(team, "h" + i, 1, H100), 5);
                waiting(run, pinned(team, "v" + i, 1, V100), 5);
            }
        }
        SharesProbe shares = SharesProbe.of(run, past);
        assertThat(shares.in(H100)).containsEntry("a", 1000L).containsEntry("b", 3000L);
        assertThat(shares.in(V100)).containsEntry("a", 2000L).containsEntry("b", 2000L);
    }

    /** The fair shares per group the scheduler computes for the run's snapshot, by model. */
    private record SharesProbe(GroupShares shares) {

        static SharesProbe of(ClusterRun run) {
            return of(run, Map.of());
        }

        static SharesProbe of(ClusterRun run, Map<String, Double> past) {
            List<JobSpec> waiting = new ArrayList<>(
                    run.pending.values().stream().map(PendingJob::spec).toList());
            Workspace ws = Workspace.of(run.snapshot());
            return new SharesProbe(GroupShares.of(ws.ledger(), waiting, run.nodes, past));
        }

        Map<String, Long> in(String model) {
            return shares.groups().stream()
                    .filter(g -> g.contains(model))
                    .findFirst()
                    .map(shares::in)
                    .orElseThrow();
        }
    }

    @Test
    void aSplitTeamBorrowsByItsPositionInTheGroup() {
        // s is guaranteed 2 H100s and holds them; it and l both borrow nothing in the A100 group, where 2 GPUs are
        // idle and both wait: the earlier job goes first there, whatever s holds of H100s
        ClusterRun run =
                new ClusterRun(QuotaScheduler.withDefaults(), List.of(node("h-0", 2, H100), node("a-0", 2, A100)));
        ModelGuarantees g = new ModelGuarantees(List.of(new ModelGuarantee(ModelGroup.of(H100), 2000, Team.UNLIMITED)));
        run.team(new Team("s", 2000, Team.UNLIMITED, 1.0, 0, WithinTeamPreemption.LOWER_PRIORITY, true, null, null, g))
                .team(Team.of("l", 0));
        run.running("s", "h0", "h-0", 0);
        run.running("s", "h1", "h-0", 1);
        waiting(run, ClusterRun.job("s", "x", 1), 10);
        waiting(run, ClusterRun.job("s", "y", 1), 9);
        waiting(run, ClusterRun.job("l", "x", 1), 8);
        run.requeue();
        // s's x first (earlier, equal positions), then l (position 0 against s's 1 in the A100 group)
        assertThat(run.isPlaced("s", "x")).isTrue();
        assertThat(run.isPlaced("l", "x")).isTrue();
        assertThat(run.isPlaced("s", "y")).isFalse();
    }
}

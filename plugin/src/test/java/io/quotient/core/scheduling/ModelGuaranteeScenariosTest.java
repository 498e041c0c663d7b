package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guarantees per GPU model (issue 35) as scenario tables: a cluster of H100 nodes ({@code h-0}, ...) and A100 nodes
 * ({@code a-0}, ...), teams whose guarantees name model groups, running jobs, then deploys; after the plans, where
 * each job runs and what was evicted.
 */
class ModelGuaranteeScenariosTest {

    static final String H100 = "H100-80GB";
    static final String A100 = "A100-SXM4-80GB";

    private final ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), cluster(1, 1));

    /** {@code h} H100 nodes and {@code a} A100 nodes of 4 GPUs each. */
    static List<NodeSpec> cluster(int h, int a) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < h; i++) {
            nodes.add(new NodeSpec("h-" + i, 128_000, 1_048_576, 4, H100, 81_920));
        }
        for (int i = 0; i < a; i++) {
            nodes.add(new NodeSpec("a-" + i, 128_000, 1_048_576, 4, A100, 81_920));
        }
        return nodes;
    }

    /** A team whose whole guarantee is split by the groups given (each: a model, its GPUs). */
    static Team split(String name, ModelGuarantee... groups) {
        return grouped(name, true, List.of(groups));
    }

    /** A team guaranteed the sum of its groups' guarantees, each group with its maximum. */
    static Team grouped(String name, boolean fairShareReclaim, List<ModelGuarantee> groups) {
        ModelGuarantees g = new ModelGuarantees(groups);
        return new Team(
                name,
                g.guaranteedMilli(),
                Team.UNLIMITED,
                1.0,
                0,
                WithinTeamPreemption.LOWER_PRIORITY,
                fairShareReclaim,
                null,
                null,
                g);
    }

    static ModelGuarantee group(String model, int gpus) {
        return new ModelGuarantee(ModelGroup.of(model), gpus * 1000L, Team.UNLIMITED);
    }

    static JobSpec pinned(String team, String name, int gpus, String... models) {
        return KueueFlavorScenarios.pinned(team, name, gpus, 0, models);
    }

    private void running(String team, String name, String node, int gpu) {
        run.running(team, name, node, gpu);
    }

    private List<String> evicted() {
        return evicted(run);
    }

    /** The jobs the run's plans evicted, as team/name. */
    static List<String> evicted(ClusterRun run) {
        return run.plans.stream()
                .flatMap(p -> p.actionsOf(PlanAction.Evict.class).stream())
                .map(e -> e.job().toString())
                .toList();
    }

    @Test
    void aTeamGuaranteedH100sReclaimsH100sNotA100s() {
        // borrower (guaranteed nothing) holds every GPU: 4 H100s and 4 A100s; hteam is guaranteed 2 H100s and wants
        // 2 GPUs of any model: it takes back 2 H100s, and the A100s, which its guarantee does not cover, stay
        run.team(split("hteam", group(H100, 2))).team(Team.of("borrower", 0));
        for (int g = 0; g < 4; g++) {
            running("borrower", "h" + g, "h-0", g);
            running("borrower", "a" + g, "a-0", g);
        }
        run.deploy(ClusterRun.job("hteam", "one", 1));
        run.deploy(ClusterRun.job("hteam", "two", 1));
        assertThat(run.placement("hteam", "one").node()).isEqualTo("h-0");
        assertThat(run.placement("hteam", "two").node()).isEqualTo("h-0");
        assertThat(evicted()).hasSize(2).allMatch(j -> j.startsWith("borrower/h"));
        assertThat(run.held("hteam", QuotaState.IN_QUOTA)).isEqualTo(2);
    }

    @Test
    void anUnpinnedJobIsChargedToTheSecondGroupWhenTheFirstIsFull() {
        // team t: 1 H100 guaranteed first, then 2 A100s; its first job takes the H100 group's GPU, the next two
        // go to A100s although H100s are idle (the first group with room, in the declared order), and the fourth,
        // with both groups full, borrows an idle GPU
        run.team(split("t", group(H100, 1), group(A100, 2)));
        run.deploy(ClusterRun.job("t", "j1", 1));
        run.deploy(ClusterRun.job("t", "j2", 1));
        run.deploy(ClusterRun.job("t", "j3", 1));
        run.deploy(ClusterRun.job("t", "j4", 1));
        assertThat(run.placement("t", "j1").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "j2").node()).isEqualTo("a-0");
        assertThat(run.placement("t", "j3").node()).isEqualTo("a-0");
        assertThat(run.isPlaced("t", "j4")).isTrue();
        assertThat(run.placement("t", "j4").quotaState()).isEqualTo(QuotaState.OVER_QUOTA);
        assertThat(run.placement("t", "j3").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
    }

    @Test
    void aDepartmentWithAPerModelMaximum() {
        // department d (8 guaranteed, any model) may hold at most 2 H100s: t1 takes 2, t2's H100 job waits with
        // the department's H100 maximum as its reason, and t2's unpinned job runs on an A100
        Department d = new Department(
                "d",
                8000,
                Team.UNLIMITED,
                1.0,
                new ModelGuarantees(List.of(new ModelGuarantee(ModelGroup.of(H100), 0, 2000))));
        run.team(Team.of("t1", 4).withDepartment(d)).team(Team.of("t2", 4).withDepartment(d));
        run.deploy(pinned("t1", "big", 2, H100));
        run.deploy(pinned("t2", "h", 1, H100));
        run.deploy(ClusterRun.job("t2", "any", 1));
        assertThat(run.isPlaced("t1", "big")).isTrue();
        assertThat(run.isPlaced("t2", "h")).isFalse();
        assertThat(run.reason("t2", "h")).contains("department d at its maximum for H100-80GB (2 of 2 GPUs)");
        assertThat(run.placement("t2", "any").node()).isEqualTo("a-0");
    }

    @Test
    void aTeamMaximumForOneModel() {
        // team t (flat guarantee 6) may hold at most 1 H100: its second H100 job waits, naming the group
        run.team(Team.of("t", 6)
                .withModelGuarantees(new ModelGuarantees(List.of(new ModelGuarantee(ModelGroup.of(H100), 0, 1000)))));
        run.deploy(pinned("t", "h1", 1, H100));
        run.deploy(pinned("t", "h2", 1, H100));
        assertThat(run.isPlaced("t", "h1")).isTrue();
        assertThat(run.reason("t", "h2")).isEqualTo("team t at its maximum for H100-80GB (1 of 1 GPUs)");
    }

    @Test
    void aJobAtItsGroupMaximumTakesThePlaceOfItsTeamsLowerPriorityJob() {
        // t (1 H100 guaranteed, at most 2) runs two priority-0 H100 jobs; its priority-1 H100 job takes the place of
        // one of them, as at the overall maximum; a priority-0 one waits at the maximum and evicts nothing
        run.team(grouped("t", true, List.of(new ModelGuarantee(ModelGroup.of(H100), 1000, 2000))));
        running("t", "low1", "h-0", 0);
        running("t", "low2", "h-0", 1);
        run.deploy(pinned("t", "same", 1, H100));
        assertThat(run.reason("t", "same")).isEqualTo("team t at its maximum for H100-80GB (2 of 2 GPUs)");
        assertThat(evicted()).isEmpty();
        run.deploy(KueueFlavorScenarios.pinned("t", "urgent", 1, 1, H100));
        assertThat(run.isPlaced("t", "urgent")).isTrue();
        assertThat(evicted()).hasSize(1).allMatch(j -> j.startsWith("t/low"));
    }

    @Test
    void aBorrowedA100JobIsNotEvictedForAnH100Claimant() {
        // h-0's H100s run owner's jobs inside its own H100 guarantee; borrower borrows every A100. claimant, guaranteed
        // 2 H100s, asks for an H100: nothing may be taken for it (owner's jobs are in its group's guarantee, and the
        // A100 jobs would free a model the job cannot use), so it waits, naming the group
        run.team(split("owner", group(H100, 4)))
                .team(split("claimant", group(H100, 2)))
                .team(Team.of("borrower", 0));
        for (int g = 0; g < 4; g++) {
            running("owner", "h" + g, "h-0", g);
            running("borrower", "a" + g, "a-0", g);
        }
        run.deploy(pinned("claimant", "needs-h100", 1, H100));
        assertThat(evicted()).isEmpty();
        assertThat(run.isPlaced("claimant", "needs-h100")).isFalse();
        assertThat(run.reason("claimant", "needs-h100")).startsWith("waits for H100-80GB: ");
    }

    @Test
    void aPinnedJobGetsItsGroupBackFromItsTeamsUnpinnedJobs() {
        // team t (2 H100s, then 2 A100s) runs two unpinned jobs on H100s: the first group with room took them;
        // other holds the other two H100s within its own guarantee. t's job pinned to H100 finds t's H100 guarantee
        // full and no H100 idle: one unpinned job moves to an idle A100 (t has room there), not evicted, and the
        // pinned job takes its H100 within t's guarantee; other keeps both its jobs
        run.team(split("t", group(H100, 2), group(A100, 2))).team(split("other", group(H100, 2)));
        tAndOtherFillTheH100s();
        run.deploy(pinned("t", "needsH100", 1, H100));
        assertThat(run.isPlaced("t", "needsH100")).isTrue();
        assertThat(run.placement("t", "needsH100").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "needsH100").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(movedTo()).containsExactly("a-0");
        assertThat(evicted()).isEmpty();
        assertThat(run.held("t", QuotaState.IN_QUOTA)).isEqualTo(3);
        assertThat(run.held("t", QuotaState.OVER_QUOTA)).isZero();
    }

    @Test
    void aPinnedJobMovesNothingWhenItsTeamsJobsHaveNoOtherGroupWithRoom() {
        // the same, but t's A100 group is full too (its job there pinned): nothing moves, the pinned job waits
        run.team(split("t", group(H100, 2), group(A100, 1))).team(split("other", group(H100, 2)));
        tAndOtherFillTheH100s();
        run.deploy(pinned("t", "onA100", 1, A100));
        run.deploy(pinned("t", "needsH100", 1, H100));
        assertThat(run.isPlaced("t", "needsH100")).isFalse();
        assertThat(movedTo()).isEmpty();
        assertThat(run.placement("t", "u1").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "u2").node()).isEqualTo("h-0");
    }

    @Test
    void aPinnedJobBorrowsAnIdleGpuOfItsGroupRatherThanRestartingItsTeamsJob() {
        // t fills its 2 guaranteed H100s with two unpinned jobs; h-0's other two H100s are idle. t's job pinned to
        // H100 borrows one of them: no job of t restarts on an A100 only so that the pinned one is counted in the
        // guarantee (were the H100s busy, one would move: aPinnedJobGetsItsGroupBackFromItsTeamsUnpinnedJobs)
        run.team(split("t", group(H100, 2), group(A100, 2))).team(split("other", group(H100, 2)));
        running("t", "u1", "h-0", 0);
        running("t", "u2", "h-0", 1);
        run.deploy(pinned("t", "needsH100", 1, H100));
        assertThat(run.placement("t", "needsH100").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "needsH100").quotaState()).isEqualTo(QuotaState.OVER_QUOTA);
        assertThat(movedTo()).isEmpty();
        assertThat(run.placement("t", "u1").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "u2").node()).isEqualTo("h-0");
        assertThat(run.held("t", QuotaState.IN_QUOTA)).isEqualTo(2);
    }

    /** t's two unpinned jobs and other's two jobs on the four H100s of h-0. */
    private void tAndOtherFillTheH100s() {
        running("t", "u1", "h-0", 0);
        running("t", "u2", "h-0", 1);
        running("other", "o2", "h-0", 2);
        running("other", "o3", "h-0", 3);
    }

    /** The nodes the plans so far moved jobs to. */
    private List<String> movedTo() {
        return run.plans.stream()
                .flatMap(p -> p.actionsOf(PlanAction.Move.class).stream())
                .map(m -> m.to().node())
                .toList();
    }

    @Test
    void aTeamAtItsGroupGuaranteeWaitsNamingTheGroup() {
        // team t holds its 1 guaranteed H100; another H100 job must borrow, and no H100 is idle
        run.team(split("t", group(H100, 1))).team(split("other", group(H100, 3)));
        running("t", "mine", "h-0", 0);
        for (int g = 1; g < 4; g++) {
            running("other", "o" + g, "h-0", g);
        }
        run.deploy(pinned("t", "more", 1, H100));
        assertThat(run.reason("t", "more")).startsWith("waits for H100-80GB: group guarantee 1, holds 1; to borrow: ");
        assertThat(evicted()).isEmpty();
    }

    @Test
    void aFlatGuaranteeReclaimsAnyModelAsBefore() {
        // flat files are unchanged: a team guaranteed 2 GPUs of any model takes them back from a borrower
        run.team(Team.of("flat", 2)).team(Team.of("borrower", 0));
        for (int g = 0; g < 4; g++) {
            running("borrower", "h" + g, "h-0", g);
            running("borrower", "a" + g, "a-0", g);
        }
        run.deploy(ClusterRun.job("flat", "two", 2));
        assertThat(run.isPlaced("flat", "two")).isTrue();
        assertThat(evicted()).hasSize(2);
    }

    @Test
    void aPinSpanningTwoGroupsIsChargedWhereItRuns() {
        // t: 1 H100 and 1 A100 guaranteed; a job that may run on either takes the H100 group first, the next one
        // the A100 group
        run.team(split("t", group(H100, 1), group(A100, 1)));
        run.deploy(pinned("t", "first", 1, H100, A100));
        run.deploy(pinned("t", "second", 1, H100, A100));
        assertThat(run.placement("t", "first").node()).isEqualTo("h-0");
        assertThat(run.placement("t", "second").node()).isEqualTo("a-0");
        assertThat(run.placement("t", "second").spec().allowedModels()).containsExactlyInAnyOrder(H100, A100);
    }
}

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.Gang;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A waiting gang as the claimant of a reclaim (issue 12): within its team's guarantee it evicts borrowed jobs of
 * other teams to free whole nodes, the cheapest set, all or nothing.
 */
class GangReclaimTest {

    private static final Duration RAN = Duration.ofHours(1);

    /** An observed job on {@code count} GPUs of a node, started an hour ago. */
    private static void put(ClusterRun run, String team, String name, String node, int firstGpu, int count) {
        run.observe(ClusterRun.job(team, name, count), node, firstGpu, count, RAN);
    }

    private static List<String> evicted(Plan plan) {
        return plan.actionsOf(PlanAction.Evict.class).stream()
                .map(e -> e.job().name())
                .sorted()
                .toList();
    }

    private static Set<String> nodesOf(PlacedJob job) {
        return Set.copyOf(job.replicas().stream().map(PlacedJob.Replica::node).toList());
    }

    @Test
    void aGangWithinItsGuaranteeEvictsTheCheapestBorrowedJobsThatFreeWholeNodes() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", 0)
                .team("team-b", 16);
        put(run, "team-a", "big-1", "node-1", 0, 8);
        put(run, "team-a", "big-2", "node-2", 0, 8);
        for (int n = 3; n <= 4; n++) {
            for (int g = 0; g < 8; g += 2) {
                put(run, "team-a", "small-" + n + "-" + g, "node-" + n, g, 2);
            }
        }

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(evicted(plan)).as("one job per node rather than four").containsExactly("big-1", "big-2");
        assertThat(nodesOf(run.placement("team-b", "train"))).containsExactlyInAnyOrder("node-1", "node-2");
        assertThat(run.placement("team-b", "train").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(run.held("team-a")).isEqualTo(16.0);
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(PlanAction.Evict::reason)
                .containsOnly(
                        "Preempted by team-b reclaiming its guarantee for team-b/train; this job ran on borrowed GPUs (team-a"
                                + " held 32 GPUs with a guarantee of 0) and is re-queued");
        run.checkNothingOverAllocated();
    }

    @Test
    void aGangThatWouldStillNotFitEvictsNothing() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", 16)
                .team("team-b", 24);
        for (int n = 2; n <= 4; n++) {
            put(run, "team-a", "a-" + n, "node-" + n, 0, 8);
        }

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 3, 3, 8));

        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .as("only one of team-a's 24 GPUs is borrowed: one node" + " could be freed, the gang needs two more")
                .isEmpty();
        assertThat(run.isPlaced("team-b", "train")).isFalse();
        assertThat(run.held("team-a")).isEqualTo(24.0);
        assertThat(run.reason("team-b", "train")).contains("needs 3 nodes with 8 free");
    }

    @Test
    void aGangBeyondItsTeamsGuaranteeWaitsWithoutEvicting() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(2, 8))
                .team("team-a", 0)
                .team("team-b", 8);
        put(run, "team-a", "a-1", "node-1", 0, 8);
        put(run, "team-a", "a-2", "node-2", 0, 8);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.isPlaced("team-b", "train")).isFalse();
        assertThat(run.held("team-a")).isEqualTo(16.0);
    }

    @Test
    void theVictimTeamsAllowanceHoldsForTheWholeGangNotPerNode() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", 8)
                .team("team-b", 32);
        for (int n = 1; n <= 4; n++) {
            put(run, "team-a", "a-" + n, "node-" + n, 0, 8);
        }

        Plan tooMany = run.deploy(ClusterRun.gang("team-b", "all", 4, 4, 8));
        assertThat(plan(tooMany))
                .as("freeing 4 nodes would take team-a below its guarantee of 8")
                .isEmpty();
        assertThat(run.held("team-a")).isEqualTo(32.0);

        Plan three = run.deploy(ClusterRun.gang("team-b", "three", 3, 3, 8));
        assertThat(evicted(three)).hasSize(3);
        assertThat(run.held("team-a")).isEqualTo(8.0);
        assertThat(nodesOf(run.placement("team-b", "three"))).hasSize(3);
        run.checkNothingOverAllocated();
    }

    @Test
    void evictingABorrowedGangFreesAllItsNodesAtOnce() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(3, 8))
                .team("team-a", 0)
                .team("team-b", 16);
        run.deploy(ClusterRun.gang("team-a", "borrower", 2, 2, 8));
        put(
                run,
                "team-a",
                "single",
                run.nodes.stream()
                        .map(NodeSpec::name)
                        .filter(n ->
                                !nodesOf(run.placement("team-a", "borrower")).contains(n))
                        .findFirst()
                        .orElseThrow(),
                0,
                8);
        run.advance(RAN);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(evicted(plan)).as("one eviction frees two nodes").containsExactly("borrower");
        assertThat(run.isPlaced("team-a", "single")).isTrue();
        assertThat(run.pending).containsKey(new JobId("team-a", "borrower"));
        run.checkNothingOverAllocated();
    }

    private static List<NodeSpec> twoA100sAndTwoH100s() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (String model : List.of("A100", "H100")) {
            for (int i = 1; i <= 2; i++) {
                nodes.add(new NodeSpec(model.toLowerCase() + "-" + i, 128_000, 1_048_576, 8, model, 81_920));
            }
        }
        return nodes;
    }

    @Test
    void theGangsNodesAreFreedInOneGpuModel() {
        List<NodeSpec> nodes = twoA100sAndTwoH100s();
        // without moves: the borrowed jobs on the H100 nodes are evicted
        ClusterRun run = new ClusterRun(
                        new QuotaScheduler(
                                QuotaScheduler.DEFAULT_POLICY,
                                42,
                                new ClusterFittedWorkload(TargetWorkload.typical()),
                                new ReclaimSettings(1000, 0)),
                        nodes)
                .team("team-a", 0)
                .team("team-b", 16)
                .team("team-c", 8);
        put(run, "team-c", "kept", "a100-2", 0, 8); // team-c's guarantee: never evicted
        put(run, "team-a", "h-1", "h100-1", 0, 4);
        put(run, "team-a", "h-2", "h100-2", 0, 4);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(evicted(plan))
                .as("a100-1 is free but a100-2 cannot be freed")
                .containsExactly("h-1", "h-2");
        assertThat(nodesOf(run.placement("team-b", "train"))).containsExactlyInAnyOrder("h100-1", "h100-2");
        assertThat(run.isPlaced("team-c", "kept")).isTrue();
    }

    @Test
    void withMovesTheGangsNodesAreFreedByMovingWhatFitsElsewhere() {
        List<NodeSpec> nodes = twoA100sAndTwoH100s();
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), nodes)
                .team("team-a", 0)
                .team("team-b", 16)
                .team("team-c", 8);
        put(run, "team-c", "kept", "a100-2", 0, 8);
        put(run, "team-a", "h-1", "h100-1", 0, 4);
        put(run, "team-a", "h-2", "h100-2", 0, 4);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(evicted(plan))
                .as("a move keeps a job running: cheaper than an eviction, as for a single job")
                .isEmpty();
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .extracting(m -> m.to().node())
                .containsExactly("a100-1", "a100-1");
        assertThat(nodesOf(run.placement("team-b", "train"))).containsExactlyInAnyOrder("h100-1", "h100-2");
        assertThat(run.isPlaced("team-a", "h-1")).isTrue();
        run.checkNothingOverAllocated();
    }

    /** Two nodes idle; the department at its maximum with vision's two low-priority 4-GPU jobs and nlp's two. */
    private static ClusterRun departmentAtItsMaximum() {
        Department research = new Department("research", 16_000, 16_000, 1);
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(6, 4))
                .team(new Team("vision", 4_000, Team.UNLIMITED, 1, 0).withDepartment(research))
                .team(new Team("nlp", 12_000, Team.UNLIMITED, 1, 0).withDepartment(research));
        put(run, "vision", "low-1", "node-1", 0, 4);
        put(run, "vision", "low-2", "node-2", 0, 4);
        put(run, "nlp", "nlp-1", "node-3", 0, 4);
        put(run, "nlp", "nlp-2", "node-4", 0, 4);
        return run;
    }

    private static JobSpec urgent(int gpus, Gang gang) {
        return ClusterRun.withPriority(1, "vision", "urgent", gpus, gang);
    }

    @Test
    void aGangTakesItsTeamsLowerPriorityJobsWhenOnlyThatBringsItsDepartmentWithinItsMaximum() {
        // the idle nodes may be taken only once the team's lower-priority jobs make room inside the department: a
        // room that frees nothing there is no room (the booking refuses it, and the ladder stopped at it)
        ClusterRun run = departmentAtItsMaximum();

        Plan plan = run.deploy(urgent(4, new Gang(2, 2)));

        assertThat(run.isPlaced("vision", "urgent"))
                .as(run.reason("vision", "urgent"))
                .isTrue();
        assertThat(evicted(plan)).containsExactly("low-1", "low-2");
        assertThat(run.held("nlp")).isEqualTo(8.0);
        assertThat(run.held("vision")).isEqualTo(8.0);
    }

    @Test
    void aSingleJobLikewiseTakesOneLowerPriorityJobOfItsTeam() {
        ClusterRun run = departmentAtItsMaximum();

        Plan plan = run.deploy(urgent(4, Gang.SINGLE));

        assertThat(run.isPlaced("vision", "urgent"))
                .as(run.reason("vision", "urgent"))
                .isTrue();
        assertThat(evicted(plan)).hasSize(1).allMatch(name -> name.startsWith("low-"));
        assertThat(run.held("vision")).isEqualTo(8.0);
    }

    private static List<PlanAction.Evict> plan(Plan plan) {
        return plan.actionsOf(PlanAction.Evict.class);
    }
}

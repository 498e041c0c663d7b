package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A gang within its team's guarantee on a full cluster where every node holds a job of a team within its guarantee
 * beside borrowed ones (the Philly trace's whole-node gangs, issue 33): no node can be freed by evictions alone, and
 * no GPU is free to move the protected jobs to. The relocation rung moves them onto GPUs freed by evicting borrowed
 * jobs elsewhere, and never takes from a team at or below its guarantee.
 */
class GangRelocationTest {

    private static final Duration RAN = Duration.ofHours(1);

    private static void put(ClusterRun run, String team, String name, String node, int firstGpu, int count) {
        run.observe(ClusterRun.job(team, name, count), node, firstGpu, count, RAN);
    }

    /**
     * Four 8-GPU nodes, each with a 4-GPU job of team-c (guaranteed 16, holding 16) and one of team-a (guaranteed
     * {@code borrowerGuarantee}, holding 16); team-b (guaranteed 16) holds nothing.
     */
    private static ClusterRun mixedNodes(Scheduler scheduler, int borrowerGuarantee) {
        return mixedNodes(scheduler, 4, borrowerGuarantee);
    }

    /** {@code nodes} such nodes; team-c is guaranteed what it holds. */
    private static ClusterRun mixedNodes(Scheduler scheduler, int nodes, int borrowerGuarantee) {
        ClusterRun run = new ClusterRun(scheduler, ClusterRun.nodes(nodes, 8))
                .team("team-a", borrowerGuarantee)
                .team("team-b", 16)
                .team("team-c", 4 * nodes);
        for (int n = 1; n <= nodes; n++) {
            put(run, "team-c", "c-" + n, "node-" + n, 0, 4);
            put(run, "team-a", "a-" + n, "node-" + n, 4, 4);
        }
        return run;
    }

    private static List<String> evicted(Plan plan) {
        return plan.actionsOf(PlanAction.Evict.class).stream()
                .map(e -> e.job().team())
                .toList();
    }

    private static Set<String> nodesOf(PlacedJob job) {
        return Set.copyOf(job.replicas().stream().map(PlacedJob.Replica::node).toList());
    }

    @Test
    void aGangBelowItsGuaranteeGetsWholeNodesByMovingProtectedJobsOntoReclaimedGpus() {
        ClusterRun run = mixedNodes(QuotaScheduler.withDefaults(), 0);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isTrue();
        assertThat(nodesOf(run.placement("team-b", "train"))).hasSize(2);
        assertThat(evicted(plan))
                .as("only the borrower loses jobs")
                .containsOnly("team-a")
                .hasSize(4);
        assertThat(plan.actionsOf(PlanAction.Move.class))
                .as("team-c's jobs on the gang's nodes keep running elsewhere")
                .hasSize(2)
                .allSatisfy(m -> assertThat(m.job().team()).isEqualTo("team-c"));
        assertThat(run.held("team-c")).isEqualTo(16.0);
        assertThat(run.held("team-a")).isEqualTo(0.0);
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(PlanAction.Evict::reason)
                .containsOnly("Preempted by team-b reclaiming its guarantee for team-b/train; this job ran on borrowed"
                        + " GPUs (team-a held 16 GPUs with a guarantee of 0) and is re-queued");
        run.checkNothingOverAllocated();
    }

    @Test
    void freeGpusScatteredOverBorrowersNodesAreGatheredForTheGang() {
        // 8 GPUs free in pieces of 2, 2 and 4 beside team-a's borrowed jobs and team-c's guaranteed ones
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(3, 8))
                .team("team-a", 0)
                .team("team-b", 16)
                .team("team-c", 8);
        put(run, "team-c", "c-1", "node-1", 0, 4);
        put(run, "team-a", "a-1", "node-1", 4, 2);
        put(run, "team-c", "c-2", "node-2", 0, 4);
        put(run, "team-a", "a-2", "node-2", 4, 2);
        put(run, "team-a", "a-3", "node-3", 0, 4);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isTrue();
        assertThat(run.held("team-c")).as("team-c's jobs run on").isEqualTo(8.0);
        assertThat(run.held("team-a")).isEqualTo(0.0);
        assertThat(evicted(plan)).containsOnly("team-a");
        run.checkNothingOverAllocated();
    }

    @Test
    void aGangIsNotGivenNodesByTakingFromATeamWithinItsGuarantee() {
        // team-a may lose 8 of its 16 GPUs: one node's worth, the gang needs two
        ClusterRun run = mixedNodes(QuotaScheduler.withDefaults(), 8);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isFalse();
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(plan.actionsOf(PlanAction.Move.class)).isEmpty();
        assertThat(run.held("team-a")).isEqualTo(16.0);
        assertThat(run.held("team-c")).isEqualTo(16.0);
    }

    @Test
    void aGangWithinItsGuaranteeTakesOnlyWhatItNeeds() {
        // six nodes: the gang's 16 GPUs cost team-a four of its six jobs; two of team-c's move
        ClusterRun run = mixedNodes(QuotaScheduler.withDefaults(), 6, 0);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isTrue();
        assertThat(evicted(plan)).containsOnly("team-a").hasSize(4);
        assertThat(plan.actionsOf(PlanAction.Move.class)).hasSize(2);
        assertThat(run.held("team-a")).isEqualTo(8.0);
        assertThat(run.held("team-c")).isEqualTo(24.0);
        run.checkNothingOverAllocated();
    }

    @Test
    void withoutMovesTheGangWaits() {
        QuotaScheduler noMoves = new QuotaScheduler(
                QuotaScheduler.DEFAULT_POLICY,
                42,
                new ClusterFittedWorkload(TargetWorkload.typical()),
                new ReclaimSettings(1000, 0));
        ClusterRun run = mixedNodes(noMoves, 0);

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isFalse();
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
    }

    @Test
    void nonPreemptibleJobsAreNeitherMovedNorEvicted() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(4, 8))
                .team("team-a", 0)
                .team("team-b", 16)
                .team("team-c", 16);
        for (int n = 1; n <= 4; n++) {
            JobSpec pinned = new JobSpec(
                    new JobId("team-c", "c-" + n),
                    new GpuRequest.WholeGpus(4),
                    1000,
                    1024,
                    Set.of(),
                    0,
                    false,
                    Duration.ZERO);
            run.observe(pinned, "node-" + n, 0, 4, RAN);
            put(run, "team-a", "a-" + n, "node-" + n, 4, 4);
        }

        Plan plan = run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));

        assertThat(run.isPlaced("team-b", "train")).isFalse();
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(plan.actionsOf(PlanAction.Move.class)).isEmpty();
    }

    @Test
    void aRelocatedTeamIsNotTakenFromAgainAndTheRequeueChangesNothing() {
        ClusterRun run = mixedNodes(QuotaScheduler.withDefaults(), 0);
        run.deploy(ClusterRun.gang("team-b", "train", 2, 2, 8));
        run.advance(Duration.ofMinutes(1));

        Plan again = run.requeue();

        assertThat(again.actionsOf(PlanAction.Evict.class))
                .as("no cycle: team-a's re-queued jobs have no right to the GPUs back")
                .isEmpty();
        assertThat(again.actionsOf(PlanAction.Move.class)).isEmpty();
        assertThat(run.isPlaced("team-b", "train")).isTrue();
        assertThat(run.held("team-c")).isEqualTo(16.0);
    }
}

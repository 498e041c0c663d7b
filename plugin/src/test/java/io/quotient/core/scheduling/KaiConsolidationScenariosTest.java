package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.BUILD;
import static io.quotient.core.scheduling.KaiScenarios.INTERACTIVE_PREEMPTIBLE;
import static io.quotient.core.scheduling.KaiScenarios.TRAIN;
import static io.quotient.core.scheduling.KaiScenarios.evictions;
import static io.quotient.core.scheduling.KaiScenarios.queue;
import static io.quotient.core.scheduling.KaiScenarios.running;
import static io.quotient.core.scheduling.KaiScenarios.runningFraction;
import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.KaiScenarios.whole;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * KAI-Scheduler's consolidation-action scenarios ({@code pkg/scheduler/actions/consolidation/consolidation_test.go},
 * {@code TestConsolidation}), translated one for one ({@link KaiScenarios} says how). KAI's consolidation moves
 * running jobs (KAI "Pipelined" on another node) so that a pending job fits, and never evicts for good; here the
 * pending jobs wait together and one periodic round decides them, and each test asserts KAI's end state: which jobs
 * run where, which wait, and that nothing is evicted (a move is a {@link PlanAction.Move}).
 *
 * <p>Not translated: jobs of several tasks that may share a node ("2 jobs of 2 & 1 GPUs running, two pending jobs,
 * only second can be consolidated", "... one job can partially be allocated": as in {@link KaiScenarios}); the cases
 * that hold only because KAI's test runs the consolidation action alone, where a Quotient round also places and
 * reclaims ("verify build job allocation isn't handled by consolidation": the build job fits free GPUs; "2 queues
 * with different share, ... don't consolidate": queue0 is below its fair share, which KAI's reclaim action, not run
 * there, would serve); "MPI jobs consolidation" (a job of a CPU launcher and GPU workers: Quotient's gang replicas
 * are alike); "Required topology with multiple levels ..." (no topology constraints in Quotient); and the two "failed
 * search backoff" cases, which test KAI's per-action backoff of a pending job (Quotient remembers failed searches
 * within one round only, {@code FailedSearches}; the "reclaim only" case is otherwise
 * {@link #onlyFirstPendingJobCanBeConsolidated}'s).
 */
class KaiConsolidationScenariosTest {

    /** The jobs wait together, submitted a second apart, and one round decides them. */
    private static void decide(Scenario s, JobSpec... jobs) {
        for (JobSpec j : jobs) {
            s.run.pending.put(j.id(), new PendingJob(j, s.run.now));
            s.run.advance(Duration.ofSeconds(1));
        }
        s.run.requeue();
    }

    private static String nodeOf(Scenario s, String team, String name) {
        return s.run.placement(team, name).node();
    }

    /**
     * KAI moves running_job1 to node0; the two nodes are alike, so either 2-GPU job may move: they end on one node
     * and the placed job on the other.
     */
    private static void assertTwoRunningJobsShareANodeBeside(Scenario s, String placed) {
        String shared = nodeOf(s, "queue0", "running_job0");
        assertThat(nodeOf(s, "queue0", "running_job1")).as(() -> state(s)).isEqualTo(shared);
        assertThat(nodeOf(s, "queue0", placed)).isNotEqualTo(shared);
        assertThat(KaiScenarios.moves(s)).hasSize(1);
    }

    @Test
    void onlyFirstPendingJobCanBeConsolidated() {
        // KAI "2 jobs of 1 task running on different GPUs, two pending jobs, only first can be consolidated": two
        // 4-GPU nodes; queue0 (deserved 2) runs 2 on node0 and 2 on node1; pending 3, then 2. KAI: running_job1
        // moves to node0, the 3 runs on node1, the 2 waits; nothing is evicted.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0, 1);
        decide(s, whole("queue0", "pending_job0", 3, TRAIN), whole("queue0", "pending_job1", 2, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactly("queue0/pending_job1");
        assertTwoRunningJobsShareANodeBeside(s, "pending_job0");
    }

    @Test
    void onlySecondPendingJobCanBeConsolidated() {
        // KAI "2 jobs of 1 task running on different GPUs, 2 pending jobs, only second can be consolidated": as
        // above; pending 5 (fits no node), then 3. KAI: running_job1 moves to node0, the 3 runs on node1.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0, 1);
        decide(s, whole("queue0", "pending_job0", 5, TRAIN), whole("queue0", "pending_job1", 3, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
        assertTwoRunningJobsShareANodeBeside(s, "pending_job1");
    }

    @Test
    void cannotConsolidateTwoPendingJobs() {
        // KAI "2 jobs of 1 task running on different GPUs, two pending jobs - can't Consolidate": two 4-GPU nodes
        // each running 3; pending 2 and 2. KAI: nothing moves, both wait.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1, 2);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0, 1, 2);
        decide(s, whole("queue0", "pending_job0", 2, TRAIN), whole("queue0", "pending_job1", 2, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(KaiScenarios.moves(s)).isEmpty();
        assertThat(s.pending()).containsExactlyInAnyOrder("queue0/pending_job0", "queue0/pending_job1");
    }

    @Test
    void cannotConsolidateThreeGpuJob() {
        // KAI "2 jobs of 1 task running on different GPUs, 1 job of 3 gpus is pending - can't Consolidate": as
        // above; pending 3. KAI: nothing moves, it waits.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1, 2);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0, 1, 2);
        decide(s, whole("queue0", "pending_job0", 3, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(KaiScenarios.moves(s)).isEmpty();
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void consolidateMovesOnlyWhatIsNeeded() {
        // KAI "3 jobs are running on different GPUs, 1 job pending - Consolidate and verify not all preemptors are
        // evicted as well": two 4-GPU nodes; node0 runs 3, node1 runs 1 and 2; pending 2. KAI: the 1-GPU job moves
        // to node0, the 2 runs on node1, the 2-GPU job stays.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1, 2);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0);
        running(s, "queue0", "running_job2", "node-1", TRAIN, 1, 2);
        decide(s, whole("queue0", "pending_job0", 2, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).isEmpty();
        assertThat(nodeOf(s, "queue0", "running_job1")).isEqualTo("node-0");
        assertThat(nodeOf(s, "queue0", "running_job2")).isEqualTo("node-1");
        assertThat(nodeOf(s, "queue0", "pending_job0")).isEqualTo("node-1");
    }

    @Test
    void buildJobsAreNeverConsolidated() {
        // KAI "2 build jobs are running on different GPUs - never consoliate": two 2-GPU nodes each running a 1-GPU
        // build job (non-preemptible); pending build 2. KAI: nothing moves, it waits.
        Scenario s = Scenario.nodes(2, 2).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", BUILD, 0);
        running(s, "queue0", "running_job1", "node-1", BUILD, 0);
        decide(s, whole("queue0", "pending_job0", 2, BUILD));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(KaiScenarios.moves(s)).isEmpty();
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void consolidateAcrossQueues() {
        // KAI "2 queues with different share, pending job will attempt to reallocate before the reallocated jobs -
        // 1 running job from queue0, 2 running jobs from queue1, 1 pending job from queue0 - consolidate": two 4-GPU
        // nodes; queue0, queue1 deserve 1 each; node0 runs queue0's 2 and queue1's 1, node1 queue1's 3; queue0 wants
        // 2. KAI: queue1's 1-GPU job moves to node1, queue0's job runs on node0.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 1, 1)).team(queue("queue1", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 2);
        running(s, "queue1", "running_job2", "node-1", TRAIN, 0, 1, 2);
        decide(s, whole("queue0", "pending_job0", 2, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).isEmpty();
        assertThat(nodeOf(s, "queue1", "running_job1")).isEqualTo("node-1");
        assertThat(nodeOf(s, "queue0", "pending_job0")).isEqualTo("node-0");
    }

    @Test
    void consolidateWithoutKillingThePreemptibleInteractive() {
        // KAI "2 jobs of 1 task running on different GPUs, 1 task is preemptible interactive job, 1 job of 2 gpus is
        // pending - consolidate without killing the preemptible interactive": two 4-GPU nodes; queue0 (deserved 2)
        // runs train 2 on node0 and interactive-preemptible 2 on node1; pending 3. KAI: the train job moves to node1,
        // the 3 runs on node0, the interactive job stays.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue0", "running_job1", "node-1", INTERACTIVE_PREEMPTIBLE, 0, 1);
        decide(s, whole("queue0", "pending_job0", 3, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).isEmpty();
        assertThat(nodeOf(s, "queue0", "running_job1")).isEqualTo("node-1");
        assertThat(nodeOf(s, "queue0", "running_job0")).isEqualTo("node-1");
        assertThat(nodeOf(s, "queue0", "pending_job0")).isEqualTo("node-0");
    }

    @Test
    void consolidateFractionsOntoOneGpu() {
        // KAI "2 jobs of 0.5 task running on different GPUs, 1 job of 1 gpus is pending - Consolidate and run the
        // pending job": one 2-GPU node with a 0.5 fraction on each GPU; pending 1 whole GPU. KAI: one fraction joins
        // the other on GPU 0, the whole job takes GPU 1.
        // Quotient: the round's reclaim search moves a fraction onto another shared GPU of its own node.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 2, 1));
        runningFraction(s, "queue0", "running_job0", "node-0", 500, 0);
        runningFraction(s, "queue0", "running_job1", "node-0", 500, 1);
        decide(s, whole("queue0", "pending_job0", 1, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).as(() -> state(s)).isEmpty();
        assertThat(s.run.placement("queue0", "running_job0").gpuIndices())
                .isEqualTo(s.run.placement("queue0", "running_job1").gpuIndices());
    }

    @Test
    void jumpOverFullNodes() {
        // KAI "jump over full nodes pods": four 4-GPU nodes; queue0 (deserved 2) runs 4 on node0, 2 on node1, 2 on
        // node2 and 4 on node3; pending 3. KAI: running_job2 moves to node1 beside running_job1, the 3 runs on
        // node2. The two half-used nodes are alike, so either 2-GPU job may move; the full nodes are not touched.
        Scenario s = Scenario.nodes(4, 4, 4, 4).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1, 2, 3);
        running(s, "queue0", "running_job1", "node-1", TRAIN, 0, 1);
        running(s, "queue0", "running_job2", "node-2", TRAIN, 0, 1);
        running(s, "queue0", "running_job3", "node-3", TRAIN, 0, 1, 2, 3);
        decide(s, whole("queue0", "pending_job0", 3, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).isEmpty();
        assertThat(KaiScenarios.moves(s)).hasSize(1);
        String shared = nodeOf(s, "queue0", "running_job1");
        assertThat(nodeOf(s, "queue0", "running_job2")).isEqualTo(shared);
        assertThat(nodeOf(s, "queue0", "pending_job0")).isIn("node-1", "node-2").isNotEqualTo(shared);
        assertThat(nodeOf(s, "queue0", "running_job0")).isEqualTo("node-0");
        assertThat(nodeOf(s, "queue0", "running_job3")).isEqualTo("node-3");
    }

    @Test
    void aGangWhoseReplicasCannotShareANodeIsMadeRoomForByMoves() {
        // KAI "1 jobs of 2 tasks that cannot sit together on the same node": four 4-GPU nodes with two 1-GPU jobs
        // each (running_job0..7 on node0..3, then node0..3 again); pending a job of two 3-GPU tasks. KAI: two 1-GPU
        // jobs move onto another node (running_job6 and running_job7 to node0), and the tasks run on the two nodes
        // they left with one job each. Here the gang's replicas are on different nodes (Quotient's gang of whole-GPU
        // replicas); which two nodes are freed is Quotient's choice, so the test asserts the shape: two moves, no
        // eviction, each replica on a node with exactly one other 1-GPU job.
        Scenario s = Scenario.nodes(4, 4, 4, 4).team(queue("queue0", 2, 1));
        for (int i = 0; i < 8; i++) {
            running(s, "queue0", "running_job" + i, "node-" + (i % 4), TRAIN, i / 4);
        }
        decide(s, KaiScenarios.gang("queue0", "pending_job0", 2, 3, TRAIN));
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).as(() -> state(s)).isEmpty();
        assertThat(KaiScenarios.moves(s)).hasSize(2);
        List<String> replicaNodes = s.run.placement("queue0", "pending_job0").replicas().stream()
                .map(PlacedJob.Replica::node)
                .toList();
        assertThat(replicaNodes).doesNotHaveDuplicates().hasSize(2);
        for (String node : replicaNodes) {
            long others = IntStream.range(0, 8)
                    .filter(i -> nodeOf(s, "queue0", "running_job" + i).equals(node))
                    .count();
            assertThat(others).as(() -> state(s)).isEqualTo(1);
        }
    }
}

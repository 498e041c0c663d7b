package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.BUILD;
import static io.quotient.core.scheduling.KaiScenarios.INFERENCE;
import static io.quotient.core.scheduling.KaiScenarios.INTERACTIVE_PREEMPTIBLE;
import static io.quotient.core.scheduling.KaiScenarios.TRAIN;
import static io.quotient.core.scheduling.KaiScenarios.queue;
import static io.quotient.core.scheduling.KaiScenarios.running;
import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.KaiScenarios.whole;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * KAI-Scheduler's allocate-action scenarios ({@code pkg/scheduler/actions/allocate/allocate_test.go},
 * {@code TestHandleAllocation}), translated one for one ({@link KaiScenarios} says how). KAI's allocate action sees
 * every pending job at once and serves queues in fair-share order; here the pending jobs all wait in the queue
 * (submitted one second apart, in KAI's listing order) and one periodic round ({@link ClusterRun#requeue}) decides
 * them together. The assertions are KAI's end state: which jobs are bound (running) and which stay pending, and the
 * node where KAI's expected node is the only one that fits. Where guarantees exceed the cluster the teams' jobs
 * within their guarantee compete, and are decided in KAI's queue order: the team holding the least share of its
 * guarantee first, the smaller job when shares are equal ({@code QueueOrder.CLAIMING}).
 *
 * <p>Not translated: the MIG cases ("Fraction job on MIG node", "Do not allocate regular GPU task on dynamic MIG
 * node": Quotient has no MIG strategy), best-effort jobs that ask no GPU ("1 build job running on 2 GPU, assign
 * pending jobs of best effort": Quotient schedules GPU jobs), the CPU/memory DRF cases ("DRF - over quota", "DRF -
 * order": quotas are GPUs), the node-order cases ("Allocate task according to nodepack" / "nodespread": Quotient's
 * placement score is its own, {@code docs/design.md}), "No jobs" (nothing to assert) and the elastic bind-failure
 * test ({@code TestHandleElasticJobCommitFailure}: no bind step in the core).
 */
class KaiAllocateScenariosTest {

    /** The jobs wait together, submitted a second apart, and one round decides them. */
    private static void allocate(Scenario s, JobSpec... jobs) {
        for (JobSpec j : jobs) {
            s.run.pending.put(j.id(), new PendingJob(j, s.run.now));
            s.run.advance(Duration.ofSeconds(1));
        }
        s.run.requeue();
    }

    @Test
    void allocateAccordingToQueueShares() {
        // KAI "1 job running on node0 from queue0, 3 pending jobs from queue1 and 1 pending job from queue0 -
        // allocate them according to their the queue shares": two 2-GPU nodes; queue0 and queue1 deserve 1 each;
        // queue0 runs 1 GPU. KAI: queue0's pending job and two of queue1's run; pending_job3 waits (2 GPUs each).
        Scenario s = Scenario.nodes(2, 2).team(queue("queue0", 1, 1)).team(queue("queue1", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        allocate(
                s,
                whole("queue0", "pending_job0", 1, TRAIN),
                whole("queue1", "pending_job1", 1, TRAIN),
                whole("queue1", "pending_job2", 1, TRAIN),
                whole("queue1", "pending_job3", 1, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder(
                        "queue0/running_job0", "queue0/pending_job0", "queue1/pending_job1", "queue1/pending_job2");
        assertThat(s.pending()).containsExactly("queue1/pending_job3");
    }

    @Test
    void allocateInOrder() {
        // KAI "1 job running on node0, 3 pending jobs - allocate them according to their order": two 4-GPU nodes;
        // queue1 (deserved 2) runs 2 on node0; pending 4, 2, 2. KAI: the 4 on node1, the first 2 on node0, the
        // last 2 waits.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue1", 2, 1));
        running(s, "queue1", "running_job0", "node-0", TRAIN, 0, 1);
        allocate(
                s,
                whole("queue1", "pending_job0", 4, TRAIN),
                whole("queue1", "pending_job1", 2, TRAIN),
                whole("queue1", "pending_job2", 2, TRAIN));
        assertThat(s.pending()).as(() -> state(s)).containsExactly("queue1/pending_job2");
        assertThat(s.run.placement("queue1", "pending_job0").node()).isEqualTo("node-1");
        assertThat(s.run.placement("queue1", "pending_job1").node()).isEqualTo("node-0");
    }

    @Test
    void onlyBuildJobAllocated() {
        // KAI "1 job running on node0, 3 pending jobs - only build job should be allocated": one 4-GPU node;
        // queue1 (deserved 2) runs a 2-GPU train job; pending train 4, train 2, build 2. KAI: the build job (higher
        // priority, within deserved) takes the 2 free GPUs; the train jobs wait.
        Scenario s = Scenario.nodes(4).team(queue("queue1", 2, 1));
        running(s, "queue1", "running_job0", "node-0", TRAIN, 0, 1);
        allocate(
                s,
                whole("queue1", "pending_job0", 4, TRAIN),
                whole("queue1", "pending_job1", 2, TRAIN),
                whole("queue1", "pending_job2", 2, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue1/running_job0", "queue1/pending_job2");
        assertThat(s.pending()).containsExactlyInAnyOrder("queue1/pending_job0", "queue1/pending_job1");
    }

    @Test
    void buildJobBeyondDeservedWaitsTrainJobRuns() {
        // KAI "1 job running on node0, 3 pending jobs, not enough deserved GPUs for build job - allocate train job":
        // as above with deserved 1. KAI: the build job (non-preemptible, 2 > deserved 1) waits; the 2-GPU train job
        // runs over quota; the 4-GPU one does not fit.
        Scenario s = Scenario.nodes(4).team(queue("queue1", 1, 1));
        running(s, "queue1", "running_job0", "node-0", TRAIN, 0, 1);
        allocate(
                s,
                whole("queue1", "pending_job0", 4, TRAIN),
                whole("queue1", "pending_job1", 2, TRAIN),
                whole("queue1", "pending_job2", 2, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue1/running_job0", "queue1/pending_job1");
        assertThat(s.pending()).containsExactlyInAnyOrder("queue1/pending_job0", "queue1/pending_job2");
    }

    @Test
    void queueThatWouldPassItsDeservedYields() {
        // KAI "Both queues have deserved of 2, overall 4 gpus, queue0 will pass the deserved if its pending jobs will
        // be allocated - allocate a job from queue1": one 4-GPU node; each queue runs 1; queue0 wants 2, queue1 1.
        // KAI: queue1's job runs, queue0's waits.
        Scenario s = Scenario.nodes(4).team(queue("queue0", 2, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 1);
        allocate(s, whole("queue0", "pending_job0", 2, TRAIN), whole("queue1", "pending_job1", 1, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue1/running_job1", "queue1/pending_job1");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void fairConvergenceServesTheQueueFurtherFromItsDeserved() {
        // KAI "queue0 has deserved of 3, queue 1 has deserved of 2, they will both have a share of 1 if allocated
        // their task, yet for fair convergence - queue1 should allocate the task": one 4-GPU node; queue0 runs 2 and
        // wants 1; queue1 wants 2. KAI: queue1's job runs, queue0's waits.
        // The guarantees (5) exceed the cluster (4) and both jobs are within their team's guarantee: queue1 holds 0 of
        // its 2, queue0 2 of its 3, so queue1 is decided first although queue0's job was submitted first.
        Scenario s = Scenario.nodes(4).team(queue("queue0", 3, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        allocate(s, whole("queue0", "pending_job0", 1, TRAIN), whole("queue1", "pending_job1", 2, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue1/pending_job1");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void equalSharesServeTheSmallerJob() {
        // KAI "Both queues has the same share, give the one with smaller job - allocate jobs queue1": one 5-GPU node;
        // queue0 (deserved 4) runs 2 and wants 2; queue1 (deserved 2) runs 1 and wants 1. KAI: queue1's job runs.
        // Guarantees (6) exceed the cluster (5) and both jobs are within their guarantee; both teams hold half of it,
        // so the smaller job (queue1's) is decided first although queue0's was submitted first.
        Scenario s = Scenario.nodes(5).team(queue("queue0", 4, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 2);
        allocate(s, whole("queue0", "pending_job0", 2, TRAIN), whole("queue1", "pending_job1", 1, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue1/running_job1", "queue1/pending_job1");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void exactlyEqualSharesServeTheFirstQueue() {
        // KAI "Both queues has exactly the same share - give priority to the created 1st (queue0)": one 5-GPU node;
        // both deserve 2 and run 2; each wants 1. KAI: queue0's job runs, queue1's waits.
        Scenario s = Scenario.nodes(5).team(queue("queue0", 2, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 2, 3);
        allocate(s, whole("queue0", "pending_job0", 1, TRAIN), whole("queue1", "pending_job1", 1, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue1/running_job1", "queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue1/pending_job1");
    }

    @Test
    void queueWithDeservedFirst() {
        // KAI "queue0 has no deserved GPUs, queue1 has deserved - allocate jobs queue1": one 1-GPU node; each queue
        // wants 1. KAI: queue1's job runs.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 0, 1)).team(queue("queue1", 1, 1));
        allocate(s, whole("queue0", "pending_job0", 1, TRAIN), whole("queue1", "pending_job1", 1, TRAIN));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue1/pending_job1");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void noNodesNothingRuns() {
        // KAI "No nodes": no nodes; queue0 (0) and queue1 (1) each want 1. KAI: both wait.
        Scenario s = Scenario.nodes().team(queue("queue0", 0, 1)).team(queue("queue1", 1, 1));
        allocate(s, whole("queue0", "pending_job0", 1, TRAIN), whole("queue1", "pending_job1", 1, TRAIN));
        assertThat(s.running()).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactlyInAnyOrder("queue0/pending_job0", "queue1/pending_job1");
    }

    @Test
    void preemptibleInteractiveOverQuota() {
        // KAI "2 running jobs and 1 pending, allocate preemptible interactive with over quota": one 5-GPU node;
        // queue0 (deserved 2) runs train 2 and interactive-preemptible 2; wants interactive-preemptible 1. KAI: runs.
        Scenario s = Scenario.nodes(5).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue0", "running_job1", "node-0", INTERACTIVE_PREEMPTIBLE, 2, 3);
        allocate(s, whole("queue0", "pending_job0", 1, INTERACTIVE_PREEMPTIBLE));
        assertThat(s.running()).as(() -> state(s)).contains("queue0/pending_job0");
        assertThat(s.pending()).isEmpty();
    }

    @Test
    void buildWithinDeservedBesideOverQuotaInteractive() {
        // KAI "1 running jobs and 1 build pending, allocate build interactive with over quota": one 5-GPU node;
        // queue0 (deserved 2) runs interactive-preemptible 2; wants build 2. KAI: the build job runs (its 2 are
        // within deserved beside no other non-preemptible job), the running job stays.
        Scenario s = Scenario.nodes(5).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", INTERACTIVE_PREEMPTIBLE, 0, 1);
        allocate(s, whole("queue0", "pending_job0", 2, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue0/pending_job0");
    }

    @Test
    void inferenceBeforeBuild() {
        // KAI "Allocate inference before build": one 1-GPU node; queue0 (deserved 1) wants build, inference, build.
        // KAI: the inference job (highest priority) runs.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1));
        allocate(
                s,
                whole("queue0", "pending_job0", 1, BUILD),
                whole("queue0", "pending_job1", 1, INFERENCE),
                whole("queue0", "pending_job2", 1, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job1");
    }

    @Test
    void inferenceBeforeTrain() {
        // KAI "Allocate inference before train": as above with train, inference, train. KAI: the inference job runs.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1));
        allocate(
                s,
                whole("queue0", "pending_job0", 1, TRAIN),
                whole("queue0", "pending_job1", 1, INFERENCE),
                whole("queue0", "pending_job2", 1, TRAIN));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job1");
    }

    @Test
    void inferenceNotAllocatedOverQuota() {
        // KAI "Allocate inference over quota": one 1-GPU node; queue0 deserves 0, queue1 1; queue0 wants inference 1.
        // KAI: it waits (non-preemptible jobs run only within deserved), though the GPU is free.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 0, 1)).team(queue("queue1", 1, 1));
        allocate(s, whole("queue0", "pending_job0", 1, INFERENCE));
        assertThat(s.running()).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }
}

package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.BUILD;
import static io.quotient.core.scheduling.KaiScenarios.INFERENCE;
import static io.quotient.core.scheduling.KaiScenarios.INTERACTIVE_PREEMPTIBLE;
import static io.quotient.core.scheduling.KaiScenarios.TRAIN;
import static io.quotient.core.scheduling.KaiScenarios.evictions;
import static io.quotient.core.scheduling.KaiScenarios.queue;
import static io.quotient.core.scheduling.KaiScenarios.running;
import static io.quotient.core.scheduling.KaiScenarios.runningFraction;
import static io.quotient.core.scheduling.KaiScenarios.runningGang;
import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.KaiScenarios.whole;
import static io.quotient.core.scheduling.Scenario.gpus;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * KAI-Scheduler's gang reclaim scenarios ({@code pkg/scheduler/actions/reclaim/reclaimGang_test.go}) and its
 * within-queue priority preemption scenarios ({@code pkg/scheduler/actions/preempt/preempt_test.go}), translated
 * one for one ({@link KaiScenarios} says how).
 */
class KaiGangAndPriorityScenariosTest {

    @Test
    void reclaimOtherJobAndPipelineAllTasksOfJob() {
        // KAI "Reclaim other job and pipeline all tasks of job": 2 GPUs; queue0 (deserved 0) runs 1; queue1
        // (deserved 2) wants a build job of two 1-GPU tasks (one node: one 2-GPU job here). KAI: queue0's job is
        // evicted and both tasks are pipelined on node0.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 0, 0)).team(queue("queue1", 2, 2));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue1", "pending_job0", 2, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue1/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void ifAllTasksCannotBeAllocatedDontReclaim() {
        // KAI "If can't allocate all tasks, dont' reclaim": one 1-GPU node; queue0 runs 1; queue1 (deserved 2)
        // wants two 1-GPU tasks. KAI: nothing changes.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 0, 0)).team(queue("queue1", 2, 2));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue1", "pending_job0", 2, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue1/pending_job0");
    }

    @Test
    void dontReclaimIfGangWouldGoOverQuota() {
        // KAI "dont reclaim if will go over quota": 10 GPUs held by queue0 (deserved 0); queue1 (deserved 2) wants
        // a build job of two 2-GPU tasks (4 GPUs, beyond its deserved 2). KAI: nothing changes.
        Scenario s = Scenario.nodes(10).team(queue("queue0", 0, 0)).team(queue("queue1", 2, 2));
        running(s, "queue0", "running_job0", "node-0", TRAIN, gpus(0, 10));
        s.deploy(whole("queue1", "pending_job0", 4, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue1/pending_job0");
    }

    @Test
    void reclaimMpiJob() {
        // KAI "reclaim mpi job": 2 GPUs; queue0 (deserved 0) runs a job of two 1-GPU tasks on node0 (one 2-GPU
        // job here); queue1 (deserved 2) wants a 2-GPU build job. KAI: queue0's job is evicted (both tasks) and
        // queue1's job is pipelined.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 0, 0)).team(queue("queue1", 2, 2));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        s.deploy(whole("queue1", "pending_job0", 2, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue1/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void jobReclaimsFromJobOnTwoNodes() {
        // KAI "job reclaims from job on two nodes": 2 nodes x 1 GPU; queue0 (deserved 1) runs a gang of two tasks
        // (minAvailable 2) on node0 and node1; queue1 (deserved 1) wants one GPU. KAI: the whole gang is evicted
        // (queue0 ends at 0, below its 1) and queue1's job is pipelined.
        //
        // Quotient agrees since 2026-11-27 ("guarantee, within one job", no longer strictly closer).
        Scenario s = Scenario.nodes(1, 1).team(queue("queue0", 1, 1)).team(queue("queue1", 1, 1));
        runningGang(s, "queue0", "running-job0", TRAIN, "node-0", "node-1");
        s.deploy(whole("queue1", "pending-job", 1, TRAIN));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue1/pending-job");
        assertThat(s.pending()).containsExactly("queue0/running-job0");
    }

    @Test
    void buildPendingSameQueueNoNeedToPreemptBoth() {
        // KAI "3 train job running, 1 build job pending for the same queue - no need to preempt both": 2 GPUs;
        // queue0 (deserved 2) runs 0.5 + 0.5 on GPU 0 and a 1-GPU train job; a 1-GPU build job is pending. KAI: the
        // 1-GPU train job is evicted, the two halves keep running.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 2, 1));
        runningFraction(s, "queue0", "running_job0", "node-0", 500, 0);
        running(s, "queue0", "running_job1", "node-0", TRAIN, 1);
        runningFraction(s, "queue0", "running_job2", "node-0", 500, 0);
        s.deploy(whole("queue0", "pending_job0", 1, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job0", "queue0/running_job2", "queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job1");
    }

    @Test
    void buildPreemptsTrainOfSameQueue() {
        // KAI "1 train job running, 1 build job pending for the same queue - preempt": 1 GPU, queue0 deserved 1.
        // KAI: the train job is evicted and the build job pipelined.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue0", "pending_job0", 1, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void trainDoesNotPreemptTrainOfSameQueue() {
        // KAI "1 train job running, 1 train job pending for the same queue - don't preempt". KAI: nothing changes.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue0", "pending_job0", 1, TRAIN));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void buildOfAnotherQueueDoesNotPreempt() {
        // KAI "1 train job running, 1 build job pending for the different queue - don't preempt": 1 GPU; queue0
        // and queue1 deserved 1; queue0's train job runs within its deserved quota. KAI: nothing changes.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1)).team(queue("queue1", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue1", "pending_job0", 1, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue1/pending_job0");
    }

    @Test
    void twoGpuBuildPreemptsTwoTrainsOfSameQueue() {
        // KAI "2 train jobs running, 1 build job with 2 GPUs pending for the same queue - preempt": 2 GPUs, queue0
        // deserved 2. KAI: both train jobs are evicted.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        running(s, "queue0", "running_job1", "node-0", TRAIN, 1);
        s.deploy(whole("queue0", "pending_job0", 2, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job0");
        assertThat(s.pending()).containsExactlyInAnyOrder("queue0/running_job0", "queue0/running_job1");
    }

    @Test
    void buildPreemptsOnlyItsOwnQueuesTrain() {
        // KAI "2 train jobs running require 2 GPUs, 1 build job with 2 GPUs pending - preempt": 4 GPUs; queue0 and
        // queue1 (deserved 2) run a 2-GPU train job each; queue0 wants a 2-GPU build job. KAI: queue0's train job is
        // evicted, queue1's keeps running.
        Scenario s = Scenario.nodes(4).team(queue("queue0", 2, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0, 1);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 2, 3);
        s.deploy(whole("queue0", "pending_job0", 2, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue1/running_job1", "queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void buildPreemptsOwnOneGpuTrainUsingTheIdleGpu() {
        // KAI "1 train requires 1 GPU for queue0, 1 train that requires 2 GPU for queue1, 1 build job with 2 GPUs
        // pending - preempt": 4 GPUs, 1 idle; queue0 (deserved 2) runs 1, queue1 (deserved 2) runs 2; queue0 wants a
        // 2-GPU build job. KAI: queue0's 1-GPU train job is evicted, queue1's keeps running.
        Scenario s = Scenario.nodes(4).team(queue("queue0", 2, 1)).team(queue("queue1", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        running(s, "queue1", "running_job1", "node-0", TRAIN, 1, 2);
        s.deploy(whole("queue0", "pending_job0", 2, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue1/running_job1", "queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void buildPreemptsTrainBeforePreemptibleInteractive() {
        // KAI "1 train, 1 preemptible interactive jobs running, 1 build job with 1 GPUs pending for the same queue
        // - preempt train": 2 GPUs, queue0 deserved 2. KAI: the train job is evicted, the interactive one stays.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        running(s, "queue0", "running_job1", "node-0", INTERACTIVE_PREEMPTIBLE, 1);
        s.deploy(whole("queue0", "pending_job0", 1, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/running_job1", "queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void buildPreemptsOneOfTwoPreemptibleInteractive() {
        // KAI "2 preemptible interactive jobs running, 1 build job with 1 GPUs pending for the same queue -
        // preempt": 2 GPUs, queue0 deserved 2. KAI: one interactive job (running_job1) is evicted.
        Scenario s = Scenario.nodes(2).team(queue("queue0", 2, 1));
        running(s, "queue0", "running_job0", "node-0", INTERACTIVE_PREEMPTIBLE, 0);
        running(s, "queue0", "running_job1", "node-0", INTERACTIVE_PREEMPTIBLE, 1);
        s.deploy(whole("queue0", "pending_job0", 1, BUILD));
        assertThat(s.running())
                .as(() -> state(s))
                .contains("queue0/pending_job0")
                .hasSize(2);
        assertThat(evictions(s)).hasSize(1);
    }

    @Test
    void preemptibleInteractivePreemptsTrainOfSameQueue() {
        // KAI "1 train job, 1 preemptible interactive job with 1 GPUs pending for the same queue - preempt": 1 GPU,
        // queue0 deserved 1. KAI: the train job is evicted and the interactive job pipelined.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 1, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue0", "pending_job0", 1, INTERACTIVE_PREEMPTIBLE));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }

    @Test
    void inferenceDoesNotPreemptInteractive() {
        // KAI "Inference shouldn't preempt interactive": 1 GPU, queue0 deserved 10 runs a build job, an inference
        // job is pending. KAI: nothing changes.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 10, 1));
        running(s, "queue0", "running_job0", "node-0", BUILD, 0);
        s.deploy(whole("queue0", "pending_job0", 1, INFERENCE));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void interactiveDoesNotPreemptInference() {
        // KAI "Interactive shouldn't preempt inference": as above, inference running, build pending. KAI: nothing
        // changes.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 10, 1));
        running(s, "queue0", "running_job0", "node-0", INFERENCE, 0);
        s.deploy(whole("queue0", "pending_job0", 1, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/running_job0");
        assertThat(s.pending()).containsExactly("queue0/pending_job0");
    }

    @Test
    void inferencePreemptsTrain() {
        // KAI "Inference should preempt train": 1 GPU, queue0 deserved 10 runs a train job, an inference job is
        // pending. KAI: the train job is evicted and the inference job pipelined.
        Scenario s = Scenario.nodes(1).team(queue("queue0", 10, 1));
        running(s, "queue0", "running_job0", "node-0", TRAIN, 0);
        s.deploy(whole("queue0", "pending_job0", 1, INFERENCE));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/pending_job0");
        assertThat(s.pending()).containsExactly("queue0/running_job0");
    }
}

package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.BUILD;
import static io.quotient.core.scheduling.KaiScenarios.INTERACTIVE_PREEMPTIBLE;
import static io.quotient.core.scheduling.KaiScenarios.TRAIN;
import static io.quotient.core.scheduling.KaiScenarios.evictions;
import static io.quotient.core.scheduling.KaiScenarios.moves;
import static io.quotient.core.scheduling.KaiScenarios.queue;
import static io.quotient.core.scheduling.KaiScenarios.runningWideGang;
import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.KaiScenarios.whole;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Gangs go through the rules single jobs go through (issue 31, findings 12 and 14): on-demand consolidation by moves
 * (KAI-Scheduler's consolidation action moves running pods so that a pending gang fits), in-team priority
 * preemption, and eviction reasons that name the rule that applied. Translated in the style of
 * {@link KaiScenarios}.
 */
class GangRulesScenariosTest {

    /** A wide gang of {@code replicas} × {@code gpus} whole GPUs, one replica per node, all or nothing. */
    private static JobSpec wideGang(String team, String name, int replicas, int gpus, int priority) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(),
                priority,
                priority < BUILD,
                Duration.ZERO,
                Gang.of(replicas));
    }

    @Test
    void twoOneGpuJobsOnOneNodeAreConsolidatedForAGangOfTwoByThree() {
        // KAI consolidation: 2 nodes x 4 GPUs; queue0 runs two 1-GPU jobs on node0 within its deserved quota (not
        // reclaimable); queue1 wants a gang of two 3-GPU pods. KAI moves one small job to node1 and places the gang.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 2, 1)).team(queue("queue1", 6, 1));
        s.running("queue0", "small-0", "node-0", TRAIN, 0);
        s.running("queue0", "small-1", "node-0", TRAIN, 1);
        s.deploy(wideGang("queue1", "gang", 2, 3, TRAIN));
        assertThat(s.running())
                .as(() -> state(s))
                .containsExactlyInAnyOrder("queue0/small-0", "queue0/small-1", "queue1/gang");
        assertThat(evictions(s)).as("moved, not evicted").isEmpty();
        assertThat(moves(s)).hasSize(1);
        assertThat(s.run.placement("queue1", "gang").replicas())
                .extracting(PlacedJob.Replica::node)
                .containsExactlyInAnyOrder("node-0", "node-1");
    }

    @Test
    void smallJobsOnEveryNodeAreConsolidatedOntoOneForAGang() {
        // 3 nodes x 4 GPUs, each with two 1-GPU jobs of queue0 (2 free each, 6 idle): a gang of two 3-GPU pods fits
        // once one job of node0 and one of node1 move to node2.
        Scenario s = Scenario.nodes(4, 4, 4).team(queue("queue0", 6, 1)).team(queue("queue1", 6, 1));
        for (int n = 0; n < 3; n++) {
            s.running("queue0", "small-" + n + "a", "node-" + n, TRAIN, 0);
            s.running("queue0", "small-" + n + "b", "node-" + n, TRAIN, 1);
        }
        s.deploy(wideGang("queue1", "gang", 2, 3, TRAIN));
        assertThat(s.running()).as(() -> state(s)).contains("queue1/gang").hasSize(7);
        assertThat(evictions(s)).isEmpty();
        assertThat(moves(s)).hasSize(2);
    }

    @Test
    void aConsolidationThatCannotPlaceTheWholeGangMovesNothing() {
        // 2 nodes x 4 GPUs with three 1-GPU jobs each (6 used, 2 idle): no moves free a second node for 3 GPUs.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 6, 1)).team(queue("queue1", 6, 1));
        for (int n = 0; n < 2; n++) {
            for (int g = 0; g < 3; g++) {
                s.running("queue0", "small-" + n + g, "node-" + n, TRAIN, g);
            }
        }
        s.deploy(wideGang("queue1", "gang", 2, 3, TRAIN));
        assertThat(s.pending()).as(() -> state(s)).containsExactly("queue1/gang");
        assertThat(moves(s)).isEmpty();
        assertThat(evictions(s)).isEmpty();
    }

    @Test
    void aHigherPriorityGangPreemptsItsTeamsLowerPriorityJobs() {
        // KAI preempt, for a gang: 2 nodes x 2 GPUs; queue0 (deserved 4) runs a 1-GPU train job on each node and
        // wants a gang of two 2-GPU interactive-preemptible pods (beyond its guarantee with the train jobs). In-team
        // priority evicts the train jobs, as it does for a single job.
        Scenario s = Scenario.nodes(2, 2).team(queue("queue0", 4, 1));
        s.running("queue0", "train-0", "node-0", TRAIN, 0);
        s.running("queue0", "train-1", "node-1", TRAIN, 0);
        s.deploy(wideGang("queue0", "gang", 2, 2, INTERACTIVE_PREEMPTIBLE));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/gang");
        assertThat(s.pending()).containsExactlyInAnyOrder("queue0/train-0", "queue0/train-1");
        assertThat(evictions(s))
                .extracting(PlanAction.Evict::reason)
                .allSatisfy(r -> assertThat(r).startsWith("Preempted by queue0/gang (priority 75) of the same team"));
    }

    @Test
    void aGangAtItsTeamsMaximumPreemptsLowerPriorityJobsOfItsTeamForTheWholeGang() {
        // queue0 may hold at most 4 GPUs and holds them in four 1-GPU train jobs; its 2 x 2-GPU gang of higher
        // priority takes the place of all four (what keeps the team within its maximum), booked whole
        Scenario s = Scenario.nodes(4, 4).team(new Team("queue0", 4000, 4000, 1, 0));
        for (int g = 0; g < 4; g++) {
            s.running("queue0", "train-" + g, "node-" + (g % 2), TRAIN, g / 2);
        }
        s.deploy(wideGang("queue0", "gang", 2, 2, INTERACTIVE_PREEMPTIBLE));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/gang");
        assertThat(s.run.placement("queue0", "gang").replicas()).hasSize(2);
        assertThat(s.run.held("queue0")).isEqualTo(4.0);
    }

    @Test
    void aGangOfEqualPriorityDoesNotPreemptItsOwnTeam() {
        Scenario s = Scenario.nodes(2, 2).team(queue("queue0", 4, 1));
        s.running("queue0", "train-0", "node-0", TRAIN, 0);
        s.running("queue0", "train-1", "node-1", TRAIN, 0);
        s.deploy(wideGang("queue0", "gang", 2, 2, TRAIN));
        assertThat(s.pending()).as(() -> state(s)).containsExactly("queue0/gang");
        assertThat(evictions(s)).isEmpty();
    }

    @Test
    void aGangEvictedForItsTeamsNonPreemptibleJobWithinTheGuaranteeIsNotToldItBorrowed() {
        // queue0 (deserved 8) runs a preemptible 2 x 4-GPU gang, exactly its guarantee; a non-preemptible 4-GPU
        // build job of queue0 has first claim on the guarantee and displaces the gang.
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 8, 1));
        runningWideGang(s, "queue0", "gang", 4, TRAIN, "node-0", "node-1");
        s.deploy(whole("queue0", "build", 4, BUILD));
        assertThat(s.running()).as(() -> state(s)).containsExactly("queue0/build");
        assertThat(evictions(s))
                .singleElement()
                .extracting(PlanAction.Evict::reason)
                .satisfies(r -> {
                    assertThat(r).doesNotContain("borrowed");
                    assertThat(r)
                            .isEqualTo(
                                    "Preempted by queue0/build, which is not preemptible and has first claim on"
                                            + " queue0's guarantee (queue0 held 8 GPUs with a guarantee of 8); a preemptible job holds the"
                                            + " guarantee only while the team's non-preemptible jobs leave it free; this job is re-queued");
                });
    }

    @Test
    void aJobEvictedForItsTeamsNonPreemptibleJobBeyondTheGuaranteeIsToldItBorrowed() {
        Scenario s = Scenario.nodes(4, 4).team(queue("queue0", 6, 1));
        runningWideGang(s, "queue0", "gang", 4, TRAIN, "node-0", "node-1");
        s.deploy(whole("queue0", "build", 4, BUILD));
        assertThat(evictions(s))
                .singleElement()
                .extracting(PlanAction.Evict::reason)
                .isEqualTo("Preempted by"
                        + " queue0/build, which runs within queue0's guarantee; this job ran on borrowed GPUs (queue0 held 8"
                        + " GPUs with a guarantee of 6) and is re-queued");
    }
}

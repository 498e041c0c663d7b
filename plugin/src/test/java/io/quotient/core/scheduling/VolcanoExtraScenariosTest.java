package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.VolcanoScenarios.evicted;
import static io.quotient.core.scheduling.VolcanoScenarios.pod;
import static io.quotient.core.scheduling.VolcanoScenarios.running;
import static io.quotient.core.scheduling.VolcanoScenarios.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Team;
import org.junit.jupiter.api.Test;

/**
 * Volcano's preempt-action cases ({@code pkg/scheduler/actions/preempt/preempt_test.go}, {@code TestPreempt}, with
 * the conformance, gang, priority and proportion plugins): preemption between jobs of one queue by priority class
 * (high-priority 100000, low-priority 10), translated with {@link VolcanoScenarios}'s mapping. The one queue q1
 * (weight 1) is a team guaranteed nothing, its capability its {@code maxGpus}; Volcano's pods are one-GPU (or n-GPU)
 * jobs, and since every running PodGroup here has minMember at most 1, each pod is a job of its own (Volcano evicts
 * pods one by one); a pod's own priority, where set, is its job's priority. The pending pods are deployed, which
 * Quotient decides (and preempts for) at once. The BestEffort cases (pods without resource requests, #3335) are left
 * out: Quotient schedules GPU jobs.
 */
class VolcanoExtraScenariosTest {

    private static final int HIGH = 100_000;
    private static final int LOW = 10;

    private static Team q1(int capability) {
        return new Team("q1", 0, capability < 0 ? Team.UNLIMITED : capability * 1000L, 1, 0);
    }

    @Test
    void doNotPreemptIfThereAreEnoughIdleResources() {
        // Volcano "do not preempt if there are enough idle resources": n1 of 10; pg1 (minMember 3) runs preemptee1,
        // preemptee2 (1 each), preemptor1 (1) of pg1 pending. Volcano: nothing is evicted.
        Scenario s = Scenario.nodes(10).team(q1(-1));
        running(s, pod("q1", "preemptee1", 1), "node-0", 0);
        running(s, pod("q1", "preemptee2", 1), "node-0", 1);
        s.deploy(pod("q1", "preemptor1", 1));
        assertThat(evicted(s)).as(() -> state(s)).isEmpty();
        assertThat(s.running()).contains("q1/preemptor1");
    }

    @Test
    void preemptOneTaskOfADifferentJobToFitBothJobsOnOneNode() {
        // Volcano "preempt one task of different job to fit both jobs on one node": n1 of 2; pg1 (low-priority)
        // runs preemptee1 (preemptable) and preemptee2 (preemptable: false); pg2 (high-priority, minMember 1) wants
        // preemptor1 and preemptor2 (1 each). Volcano: preemptee1 alone is evicted; one preemptor fits.
        Scenario s = Scenario.nodes(2).team(q1(-1));
        running(s, pod("q1", "preemptee1", 1, LOW, true), "node-0", 0);
        running(s, pod("q1", "preemptee2", 1, LOW, false), "node-0", 1);
        s.deploy(pod("q1", "preemptor1", 1, HIGH, true), pod("q1", "preemptor2", 1, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q1/preemptee1");
        assertThat(s.running())
                .as(() -> state(s))
                .contains("q1/preemptee2")
                .containsAnyOf("q1/preemptor1", "q1/preemptor2");
        assertThat(s.running().stream().filter(j -> j.startsWith("q1/preemptor")))
                .hasSize(1);
    }

    @Test
    void preemptEnoughTasksToFitALargeTaskOfADifferentJob() {
        // Volcano "preempt enough tasks to fit large task of different job": n1 of 6; pg1 (low-priority) runs
        // preemptee1, preemptee2 (preemptable) and preemptee3 (not), 1 each; pg2 (high-priority) wants preemptor1
        // of 5. Volcano: preemptee1 and preemptee2 are evicted.
        Scenario s = Scenario.nodes(6).team(q1(-1));
        running(s, pod("q1", "preemptee1", 1, LOW, true), "node-0", 0);
        running(s, pod("q1", "preemptee2", 1, LOW, true), "node-0", 1);
        running(s, pod("q1", "preemptee3", 1, LOW, false), "node-0", 2);
        s.deploy(pod("q1", "preemptor1", 5, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactlyInAnyOrder("q1/preemptee1", "q1/preemptee2");
        assertThat(s.running()).contains("q1/preemptor1", "q1/preemptee3");
    }

    @Test
    void preemptALowPriorityJobInTheSameQueueAtItsCapability() {
        // Volcano "preempt low priority job in same queue" (#3161): n1 of 12; q1 capability 4; pg1 (low-priority)
        // runs preemptee1 (3); pg2 (high-priority) wants preemptor1 (3): 6 would exceed the capability. Volcano:
        // preemptee1 is evicted.
        Scenario s = Scenario.nodes(12).team(q1(4));
        running(s, pod("q1", "preemptee1", 3, LOW, true), "node-0", 0, 1, 2);
        s.deploy(pod("q1", "preemptor1", 3, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q1/preemptee1");
        assertThat(s.running()).containsExactly("q1/preemptor1");
    }

    @Test
    void doNotPreemptALowPriorityJobWhenTheQueueHasRoom() {
        // Volcano "preempt low priority job in same queue: allocatable and has enough resource, don't preempt"
        // (#3161): as above with capability 6. Volcano: nothing is evicted.
        Scenario s = Scenario.nodes(12).team(q1(6));
        running(s, pod("q1", "preemptee1", 3, LOW, true), "node-0", 0, 1, 2);
        s.deploy(pod("q1", "preemptor1", 3, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).isEmpty();
        assertThat(s.running()).containsExactlyInAnyOrder("q1/preemptee1", "q1/preemptor1");
    }

    @Test
    void preemptOnlyTheLowPriorityPreemptablePodInTheSameQueue() {
        // Volcano "preempt low priority job in same queue" (#2232): n1 of 12; q1 capability 3; pg1 (low-priority)
        // runs preemptee1 (preemptable: false), preemptee2 (preemptable) and preemptee3 (preemptable, the pod's own
        // priority high-priority), 1 each; pg2 (high-priority) wants preemptor1 (1). Volcano: preemptee2 is evicted.
        Scenario s = Scenario.nodes(12).team(q1(3));
        running(s, pod("q1", "preemptee1", 1, LOW, false), "node-0", 0);
        running(s, pod("q1", "preemptee2", 1, LOW, true), "node-0", 1);
        running(s, pod("q1", "preemptee3", 1, HIGH, true), "node-0", 2);
        s.deploy(pod("q1", "preemptor1", 1, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q1/preemptee2");
        assertThat(s.running()).contains("q1/preemptor1", "q1/preemptee1", "q1/preemptee3");
    }
}

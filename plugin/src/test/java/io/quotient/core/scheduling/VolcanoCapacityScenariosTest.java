package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.VolcanoScenarios.NO_CAP;
import static io.quotient.core.scheduling.VolcanoScenarios.evicted;
import static io.quotient.core.scheduling.VolcanoScenarios.pod;
import static io.quotient.core.scheduling.VolcanoScenarios.queue;
import static io.quotient.core.scheduling.VolcanoScenarios.running;
import static io.quotient.core.scheduling.VolcanoScenarios.state;
import static io.quotient.core.scheduling.VolcanoScenarios.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Volcano's capacity-plugin cases without queue hierarchy ({@code pkg/scheduler/plugins/capacity/capacity_test.go},
 * {@code Test_capacityPlugin_OnSessionOpenWithoutHierarchy}, actions allocate and reclaim): queues with deserved and
 * capability, reclaim toward deserved, queue priority. Translated one for one ({@link VolcanoScenarios} says how).
 */
class VolcanoCapacityScenariosTest {

    @Test
    void podNotAllocatableWhenQueueExceedsCapability() {
        // Volcano capacity_test.go "case1: Pod not allocatable when queue exceed queue capability": nodes n1, n2 of 2;
        // q2 (capability 1.5, no deserved) runs p3 (1) on n1; p4 (1) of q2 is pending. Volcano: no bind (1 + 1 > 1.5).
        Scenario s = Scenario.nodes(2, 2).team(queue("q2", 0, 1.5));
        running(s, pod("q2", "p3", 1), "node-0", 0);
        s.deploy(pod("q2", "p4", 1));
        assertThat(s.pending()).as(() -> state(s)).containsExactly("q2/p4");
        assertThat(evicted(s)).isEmpty();
        assertThat(s.run.reason("q2", "p4")).contains("maxGpus 1.5");
    }

    @Test
    void canReclaimFromOtherQueuesWhenAllocatedBelowDeserved() {
        // Volcano capacity_test.go "case2: Can reclaim from other queues when allocated < deserved": nodes n1, n2 of
        // 2; q3 and q4 deserved 2 each; q3's PodGroup runs p5 (2, not preemptable) on n1 and p6 (2) on n2; p7 (2) of
        // q4 is pending. Volcano: p6 is evicted and p7 pipelined on n2.
        Scenario s = Scenario.nodes(2, 2).team(queue("q3", 2, NO_CAP)).team(queue("q4", 2, NO_CAP));
        running(s, pod("q3", "p5", 2, 0, false), "node-0", 0, 1);
        running(s, pod("q3", "p6", 2), "node-1", 0, 1);
        s.deploy(pod("q4", "p7", 2));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q3/p6");
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("q3/p5", "q4/p7");
        assertThat(s.run.placement("q4", "p7").node()).isEqualTo("node-1");
    }

    @Test
    void podsAreAssignedInQueuePriorityOrder() {
        // Volcano capacity_test.go "case4: Pods are assigned according to the order of Queue Priority in which PGs
        // are placed": nodes n5, n6 of 2; q7 (priority 5), q8 (priority 1), q9 (priority 10), each capability 2 and
        // no deserved; q7 runs p13 (2) on n5; p14 (2) of q8 and p15 (2) of q9 are both pending. Volcano: p15 (the
        // higher queue priority) is bound to n6, p14 waits.
        Scenario s = Scenario.nodes(2, 2)
                .team(queue("q7", 5, 0, 2))
                .team(queue("q8", 1, 0, 2))
                .team(queue("q9", 10, 0, 2));
        running(s, pod("q7", "p13", 2), "node-0", 0, 1);
        waiting(s, pod("q8", "p14", 2), pod("q9", "p15", 2));
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("q7/p13", "q9/p15");
        assertThat(s.pending()).containsExactly("q8/p14");
        assertThat(s.run.placement("q9", "p15").node()).isEqualTo("node-1");
        assertThat(evicted(s)).isEmpty();
    }

    @Test
    void canReclaimWhenAllocatedPlusRequestWithinDeserved() {
        // Volcano capacity_test.go "case5: Can reclaim from other queues when allocated + req <= deserved on one
        // dimension": node n1 of 2; q10 (deserved 2, capability 4) runs p16 (1); q11 (deserved 0, capability 2) runs
        // p18 (1); p17 (1) of q10 is pending. Volcano: p18 is evicted and p17 pipelined on n1. (Volcano's case is
        // about memory being over deserved while CPU is not; with one resource it is q10 reclaiming within deserved.)
        Scenario s = Scenario.nodes(2).team(queue("q10", 2, 4)).team(queue("q11", 0, 2));
        running(s, pod("q10", "p16", 1), "node-0", 0);
        running(s, pod("q11", "p18", 1), "node-0", 1);
        s.deploy(pod("q10", "p17", 1));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q11/p18");
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("q10/p16", "q10/p17");
    }

    @Test
    void cannotReclaimWhenAllocatedPlusRequestAboveDeserved() {
        // Volcano capacity_test.go "case6: Can not reclaim from other queues when allocated + req > deserved": node n1
        // of 2; q12 (deserved 1, capability 4) runs p19 (1); q13 (deserved 0, capability 2) runs p21 (1); p20 (1) of
        // q12 is pending. Volcano: nothing is evicted or pipelined.
        Scenario s = Scenario.nodes(2).team(queue("q12", 1, 4)).team(queue("q13", 0, 2));
        running(s, pod("q12", "p19", 1), "node-0", 0);
        running(s, pod("q13", "p21", 1), "node-0", 1);
        s.deploy(pod("q12", "p20", 1));
        assertThat(evicted(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).as(() -> state(s)).containsExactly("q12/p20");
        assertThat(s.running()).containsExactlyInAnyOrder("q12/p19", "q13/p21");
    }

    @Test
    void reclaimRespectsCapability() {
        // Volcano capacity_test.go "case10: PreemptiveFn respects capability — no reclaim when futureUsed would exceed
        // capability": nodes n9, n10 of 8; queue21 (deserved = capability = 8) runs p33 (7) on n9; queue22 (no
        // deserved, capability 2) runs p35 (2) on n10; p34 (2) of queue21 is pending. Volcano: nothing is evicted or
        // pipelined (7 + 2 > 8), though n10 has 6 idle.
        Scenario s = Scenario.nodes(8, 8).team(queue("queue21", 8, 8)).team(queue("queue22", 0, 2));
        running(s, pod("queue21", "p33", 7), "node-0", Scenario.gpus(0, 7));
        running(s, pod("queue22", "p35", 2), "node-1", 0, 1);
        s.deploy(pod("queue21", "p34", 2));
        assertThat(evicted(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).as(() -> state(s)).containsExactly("queue21/p34");
        assertThat(s.run.reason("queue21", "p34")).contains("maxGpus 8");
    }
}

package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.VolcanoScenarios.HIGH;
import static io.quotient.core.scheduling.VolcanoScenarios.LOW;
import static io.quotient.core.scheduling.VolcanoScenarios.MID;
import static io.quotient.core.scheduling.VolcanoScenarios.evicted;
import static io.quotient.core.scheduling.VolcanoScenarios.pod;
import static io.quotient.core.scheduling.VolcanoScenarios.running;
import static io.quotient.core.scheduling.VolcanoScenarios.state;
import static io.quotient.core.scheduling.VolcanoScenarios.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Volcano's reclaim-action cases ({@code pkg/scheduler/actions/reclaim/reclaim_test.go}, {@code TestReclaim}, the
 * version rewritten on {@code TestCommonStruct}): queues with weights (and queue priorities) and no deserved of
 * their own, whose proportion-plugin share is the cluster divided by weight; the test asserts which pods the reclaim
 * action evicts for one pending pod. Translated one for one ({@link VolcanoScenarios} says how): the queues are teams
 * guaranteed nothing that keep fair-share reclaim. One node n1 unless a test says otherwise.
 */
class VolcanoReclaimScenariosTest {

    @Test
    void twoQueuesOneOverusingShouldReclaim() {
        // Volcano "Two Queue with one Queue overusing resource, should reclaim": n1 of 3; q1 and q2 of weight 1; q1's
        // PodGroup (low priority) runs preemptee1 and preemptee3 (not preemptable) and preemptee2, 1 each; preemptor1
        // (1, high priority) of q2 is pending. Volcano: preemptee2 is evicted.
        //
        // Quotient: q2's fair share is 1 (q1's 2); fair-share reclaim takes the one preemptible job of q1.
        Scenario s = Scenario.nodes(3).team(weighted("q1", 1, 0)).team(weighted("q2", 1, 0));
        running(s, pod("q1", "preemptee1", 1, LOW, false), "node-0", 0);
        running(s, pod("q1", "preemptee2", 1, LOW, true), "node-0", 1);
        running(s, pod("q1", "preemptee3", 1, LOW, false), "node-0", 2);
        s.deploy(pod("q2", "preemptor1", 1, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q1/preemptee2");
        assertThat(s.running()).as(() -> state(s)).contains("q2/preemptor1");
    }

    @Test
    void sortReclaimeesByJobPriority() {
        // Volcano "sort reclaimees when reclaiming from overusing queue": n1 of 4; q1, q2, q3 of weight 1; q1 runs
        // preemptee1-1 and preemptee1-2 (mid priority, preemptable); q2 runs preemptee2-1 (low, preemptable) and
        // preemptee2-2 (low, not preemptable); preemptor1 (1, high) of q3 is pending. Volcano: preemptee2-1 (the low
        // priority job's preemptable pod) is evicted.
        //
        // Quotient: q3's fair share is 1, q1's and q2's 1.5 each; no plan keeps a victim at its share, so "fair share,
        // within one job" lets one end half a GPU below it, and the cheapest plan evicts the lowest priority.
        Scenario s = Scenario.nodes(4)
                .team(weighted("q1", 1, 0))
                .team(weighted("q2", 1, 0))
                .team(weighted("q3", 1, 0));
        running(s, pod("q1", "preemptee1-1", 1, MID, true), "node-0", 0);
        running(s, pod("q1", "preemptee1-2", 1, MID, true), "node-0", 1);
        running(s, pod("q2", "preemptee2-1", 1, LOW, true), "node-0", 2);
        running(s, pod("q2", "preemptee2-2", 1, LOW, false), "node-0", 3);
        s.deploy(pod("q3", "preemptor1", 1, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q2/preemptee2-1");
        assertThat(s.running()).as(() -> state(s)).contains("q3/preemptor1");
    }

    @Test
    void sortReclaimeesByQueuePriority() {
        // Volcano "sort reclaimees when reclaiming from overusing queues with different queue priority": n1 of 4; q1
        // (queue priority 5), q2 (10), q3 (1), equal weights; all pods mid priority; q1 runs preemptee1-1 (preemptable)
        // and preemptee1-2 (not); q2 runs preemptee2-1 (preemptable) and preemptee2-2 (not); preemptor1 (1) of q3 is
        // pending. Volcano: preemptee1-1 (the lower queue priority's preemptable pod) is evicted; q3's proportion share
        // (a third of n1, capped at its request of 1) lets it reclaim, and queue priority only orders the victims.
        //
        // DIFFERENCE: in Quotient team priority is not a victim order but a precedence on idle capacity: "priority:
        // idle capacity goes to higher priorities first", and the fair share is "weighted max-min, higher team priority
        // first". q2 (10) and q1 (5) each have a share of their 2 GPUs, q3 (1) a share of 0, so q3 has no right to
        // reclaim (it is guaranteed nothing and at its fair share) and preemptor1 waits; nothing is evicted.
        Scenario s = Scenario.nodes(4)
                .team(weighted("q1", 1, 5))
                .team(weighted("q2", 1, 10))
                .team(weighted("q3", 1, 1));
        running(s, pod("q1", "preemptee1-1", 1, MID, true), "node-0", 0);
        running(s, pod("q1", "preemptee1-2", 1, MID, false), "node-0", 1);
        running(s, pod("q2", "preemptee2-1", 1, MID, true), "node-0", 2);
        running(s, pod("q2", "preemptee2-2", 1, MID, false), "node-0", 3);
        s.deploy(pod("q3", "preemptor1", 1, MID, true));
        assertThat(evicted(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).as(() -> state(s)).containsExactly("q3/preemptor1");
        assertThat(s.run.reason("q3", "preemptor1")).contains("borrows only idle GPUs");
    }

    @Test
    void onlyEvictVictimsFromTheNodeWhereReclaimSucceeds() {
        // Volcano "only evict victims from the node where reclaim actually succeeds": n1 of 1 runs victim-n1 (1), n2
        // of 3 runs victim-n2 (2) with 1 idle, both of q1 (low priority); q1 and q2 of weight 1; preemptor (2, high) of
        // q2 is pending. Volcano: only victim-n2 is evicted (evicting victim-n1 cannot make room on n1).
        //
        // Quotient: q2's fair share is 2; the only plan is victim-n2 on node-1 (q1 then holds 1, one job below its
        // share of 2, as "fair share, within one job" allows), and nothing on node-0 is touched.
        Scenario s = Scenario.nodes(1, 3).team(weighted("q1", 1, 0)).team(weighted("q2", 1, 0));
        running(s, pod("q1", "victim-n1", 1, LOW, true), "node-0", 0);
        running(s, pod("q1", "victim-n2", 2, LOW, true), "node-1", 0, 1);
        s.deploy(pod("q2", "preemptor", 2, HIGH, true));
        assertThat(evicted(s)).as(() -> state(s)).containsExactly("q1/victim-n2");
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("q1/victim-n1", "q2/preemptor");
        assertThat(s.run.placement("q2", "preemptor").node()).isEqualTo("node-1");
    }
}

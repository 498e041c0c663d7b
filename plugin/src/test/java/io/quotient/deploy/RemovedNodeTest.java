package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.LeadershipGate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node leaves the cluster while it holds jobs: the leader's reconciliation re-queues them (Pending with the
 * reason, an event, workload stopped, reservations released) and the queue places them on the nodes left — but
 * never on a view of the nodes that is empty.
 */
class RemovedNodeTest {

    private static final List<NodeSpec> TWO_NODES = List.of(
            new NodeSpec("gpu-node-1", 64_000, 512_000, 2, "A100", 81_920),
            new NodeSpec("gpu-node-2", 64_000, 512_000, 2, "A100", 81_920));

    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            ScriptedScheduler.SIMPLE_VALIDATOR,
            TWO_NODES,
            Map.of("team-a", Team.of("team-a", 4)),
            gateway -> gateway,
            LeadershipGate.ALWAYS);

    @Test
    void aJobOnARemovedNodeIsRequeuedAndPlacedOnANodeLeft() {
        JobRecord placed = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));
        String lost = placed.status().node();
        String left = lost.equals("gpu-node-1") ? "gpu-node-2" : "gpu-node-1";

        h.cluster.removeNode(lost);
        h.decisions.requeuePending();

        JobRecord now = h.store.find(placed.id()).orElseThrow();
        assertThat(now.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(now.status().node()).isEqualTo(left);
        assertThat(h.cluster.workloadOf(placed.id()).node()).isEqualTo(left);
        assertThat(h.cluster.events(placed.id())).anySatisfy(e -> {
            assertThat(e.reason()).isEqualTo("NodeRemoved");
            assertThat(e.message()).contains("node " + lost + " was removed from the cluster; re-queued");
        });
    }

    @Test
    void aJobThatFitsNowhereElseWaitsSayingItsNodeWasRemoved() {
        JobRecord first = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 2));
        JobRecord second = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 2));
        assertThat(second.status().node()).isNotEqualTo(first.status().node());

        h.cluster.removeNode(first.status().node());
        h.decisions.requeuePending();

        JobRecord waiting = h.store.find(first.id()).orElseThrow();
        assertThat(waiting.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(waiting.status().reason())
                .startsWith("Node removed: node " + first.status().node() + " was removed from the cluster; re-queued");
        assertThat(h.cluster.workloadOf(first.id()))
                .as("its workload is stopped")
                .isNull();
        assertThat(h.store.find(second.id()).orElseThrow().phase())
                .as("the job on the node left keeps running")
                .isEqualTo(JobPhase.RUNNING);
    }

    @Test
    void theReservationOfAFractionOnARemovedNodeIsReleased() {
        JobRecord placed = h.deployments.deploy(JobFixtures.fraction("team-a", "notebook", 0.5));
        String lost = placed.status().node();
        assertThat(h.cluster.reservations().keySet()).extracting(GpuSlot::node).contains(lost);

        h.cluster.removeNode(lost);
        h.decisions.requeuePending();

        assertThat(h.cluster.reservations().keySet()).extracting(GpuSlot::node).doesNotContain(lost);
        assertThat(h.store.find(placed.id()).orElseThrow().status().node()).isNotEqualTo(lost);
    }

    @Test
    void anEmptyViewOfTheNodesRequeuesNothing() {
        JobRecord placed = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));

        h.cluster.removeNode("gpu-node-1");
        h.cluster.removeNode("gpu-node-2");
        h.decisions.requeuePending();

        JobRecord now = h.store.find(placed.id()).orElseThrow();
        assertThat(now.phase().holdsCapacity()).isTrue();
        assertThat(now.status().node()).isEqualTo(placed.status().node());
        assertThat(h.cluster.workloadOf(placed.id())).isNotNull();
    }

    @Test
    void aGangLosingOneReplicasNodeIsRequeuedWhole() {
        ScriptedScheduler scheduler = new ScriptedScheduler();
        ServiceHarness gangs = new ServiceHarness(
                scheduler,
                ScriptedScheduler.SIMPLE_VALIDATOR,
                TWO_NODES,
                Map.of("team-a", Team.of("team-a", 4)),
                gateway -> gateway,
                LeadershipGate.ALWAYS);
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.Place(new PlacedJob(
                spec,
                "gpu-node-1",
                List.of(0, 1),
                1000,
                QuotaState.IN_QUOTA,
                s.now(),
                List.of(new PlacedJob.Replica("gpu-node-2", List.of(0, 1)))))));
        JobRecord gang = gangs.deployments.deploy(JobFixtures.wholeGpus("team-a", "ddp", 2));
        assertThat(gang.status().otherReplicas()).hasSize(1);

        gangs.cluster.removeNode("gpu-node-2");
        gangs.decisions.requeuePending();

        JobRecord now = gangs.store.find(gang.id()).orElseThrow();
        assertThat(now.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(now.status().reason()).contains("node gpu-node-2 was removed");
        assertThat(gangs.cluster.workloadOf(gang.id()))
                .as("the replica on the node left is stopped too")
                .isNull();
    }
}

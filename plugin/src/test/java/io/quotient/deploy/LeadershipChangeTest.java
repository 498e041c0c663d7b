package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.QuotaState;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Decisions that could be taken twice (leader changes, a deploy racing the queue) are taken once. */
class LeadershipChangeTest {

    private final ScriptedScheduler scheduler = new ScriptedScheduler();
    private final AtomicBoolean leader = new AtomicBoolean(true);
    private final AtomicReference<FaultyGateway> gateway = new AtomicReference<>();
    private final ServiceHarness h = new ServiceHarness(
            scheduler,
            ScriptedScheduler.SIMPLE_VALIDATOR,
            ServiceHarness.fourNodesOfTenGpus(),
            ServiceHarness.twoTeamsOfTwenty(),
            real -> {
                gateway.set(new FaultyGateway(real));
                return gateway.get();
            },
            leader::get);

    @Test
    void aReplicaThatLosesTheLeadershipInTheMiddleOfAPlanAppliesNothingMore() {
        scheduler.placeEachAt("gpu-node-1", List.of(0, 1), 1000, QuotaState.OVER_QUOTA);
        JobRecord borrower = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "borrower", 2));
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(
                new PlanAction.Evict(borrower.id(), "Preempted by team-b reclaiming its guarantee"),
                new PlanAction.Place(
                        PlanApplicationTest.at(s, spec, "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA))));
        gateway.get().afterStop = () -> leader.set(false); // the Lease is lost while the eviction runs

        JobRecord owner = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "owner", 2));

        assertThat(h.store.find(borrower.id()).orElseThrow().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(owner.phase()).as("left to the new leader").isEqualTo(JobPhase.PENDING);
        assertThat(h.cluster.workloadOf(owner.id())).isNull();
    }

    @Test
    void aDeployDecisionThatLosesTheRaceToTheQueueDecidesNothingAgain() {
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.KeepPending(spec.id(), "no free GPU")));
        JobRecord stale = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "owner", 2));
        scheduler.onPending = s -> new Plan(List.of(new PlanAction.Place(PlanApplicationTest.at(
                s, s.pending().get(0).spec(), "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA))));
        h.decisions.requeuePending(); // the queue took the lock first and placed the job
        int decisions = scheduler.snapshots.size();
        scheduler.onSchedule = (s, spec) -> {
            throw new AssertionError("the job was decided a second time");
        };

        h.decisions.decideNew(stale);

        assertThat(scheduler.snapshots).hasSize(decisions);
        assertThat(h.store.find(stale.id()).orElseThrow().status().node()).isEqualTo("gpu-node-1");
    }

    @Test
    void aFollowerDeletesTheRecordButLeavesTheReservationToTheLeader() {
        scheduler.placeEachAt("gpu-node-2", List.of(4), 250, QuotaState.IN_QUOTA);
        JobRecord fraction = h.deployments.deploy(JobFixtures.fraction("team-a", "quarter", 0.25));
        GpuSlot gpu = new GpuSlot("gpu-node-2", 4);
        assertThat(h.cluster.reservations()).containsOnlyKeys(gpu);

        leader.set(false);
        h.deployments.delete(fraction.id());
        assertThat(h.store.find(fraction.id())).isEmpty();
        assertThat(h.cluster.workloadOf(fraction.id())).isNull();
        // its view may lag the leader's: a fraction just placed on that GPU would lose its reservation
        assertThat(h.cluster.reservations()).containsOnlyKeys(gpu);

        leader.set(true);
        h.decisions.requeuePending();
        assertThat(h.cluster.reservations()).isEmpty();
    }
}

package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** How the service applies plans the scheduler wrote: order, reasons, events, reservations, leadership. */
class PlanApplicationTest {

    private final ScriptedScheduler scheduler = new ScriptedScheduler();
    private final ServiceHarness h = new ServiceHarness(scheduler, ScriptedScheduler.SIMPLE_VALIDATOR);

    static PlacedJob at(SchedulingSnapshot s, JobSpec spec, String node, List<Integer> gpus, int milli, QuotaState q) {
        return new PlacedJob(spec, node, gpus, milli, q, s.now());
    }

    @Test
    void recordsThePlacementAndCreatesTheWorkloadThere() {
        scheduler.onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(at(s, spec, "gpu-node-2", List.of(3, 4), 1000, QuotaState.IN_QUOTA))));

        JobRecord placed = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));

        assertThat(placed.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(placed.status().node()).isEqualTo("gpu-node-2");
        assertThat(placed.status().gpus()).extracting(g -> g.index()).containsExactly(3, 4);
        assertThat(placed.status().quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(h.cluster.workloadOf(placed.id()).node()).isEqualTo("gpu-node-2");
        assertThat(h.cluster.events(placed.id())).extracting(e -> e.reason()).containsExactly("Placed");
        // the job being decided is not also in the queue of its own snapshot
        assertThat(scheduler.snapshots.get(0).pending()).isEmpty();
    }

    @Test
    void aJobThatCannotRunYetIsRecordedPendingWithTheReason() {
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(
                new PlanAction.KeepPending(spec.id(), "no node has 12 free GPUs (nearest: gpu-node-1 with 10)")));

        JobRecord pending = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "huge", 12));

        assertThat(pending.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(pending.status().reason()).isEqualTo("no node has 12 free GPUs (nearest: gpu-node-1 with 10)");
        assertThat(h.cluster.workloads()).isEmpty();
        assertThat(h.cluster.events(pending.id())).extracting(e -> e.reason()).containsExactly("Pending");
    }

    @Test
    void evictionsComeFirstAndLeaveTheEvictedJobPendingWithTheReason() {
        scheduler.onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(at(s, spec, "gpu-node-1", List.of(0, 1), 1000, QuotaState.OVER_QUOTA))));
        JobRecord borrower = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "borrower", 2));

        scheduler.onSchedule = (s, spec) -> new Plan(List.of(
                new PlanAction.Evict(borrower.id(), "Preempted by team-b reclaiming its guarantee"),
                new PlanAction.Place(at(s, spec, "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA))));
        JobRecord owner = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "owner", 2));

        JobRecord evicted = h.store.find(borrower.id()).orElseThrow();
        assertThat(owner.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(evicted.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(evicted.status().node()).isNull();
        assertThat(evicted.status().reason()).isEqualTo("Preempted by team-b reclaiming its guarantee");
        assertThat(h.cluster.workloadOf(borrower.id())).isNull();
        assertThat(h.cluster.events(borrower.id())).extracting(e -> e.reason()).containsExactly("Placed", "Preempted");
        assertThat(h.metrics.preemptions).containsExactly("team-a/borrower:reclaim");

        // the re-queue keeps the preemption visible while saying why it still waits
        scheduler.onPending = s -> new Plan(List.of(new PlanAction.KeepPending(borrower.id(), "no free GPU")));
        h.decisions.requeuePending();
        assertThat(h.store.find(borrower.id()).orElseThrow().status().reason())
                .isEqualTo("Preempted by team-b reclaiming its guarantee; still waiting: no free GPU");

        // and places it again when the scheduler finds room; the event says it was re-queued
        scheduler.onPending = s -> new Plan(List.of(new PlanAction.Place(
                at(s, s.pending().get(0).spec(), "gpu-node-3", List.of(0, 1), 1000, QuotaState.OVER_QUOTA))));
        h.decisions.requeuePending();
        assertThat(h.store.find(borrower.id()).orElseThrow().status().node()).isEqualTo("gpu-node-3");
        assertThat(h.cluster
                        .events(borrower.id())
                        .get(h.cluster.events(borrower.id()).size() - 1)
                        .reason())
                .isEqualTo("Requeued");
        assertThat(h.metrics.requeues).containsExactly("team-a/borrower");
    }

    @Test
    void fractionsShareOneReservationThatGoesWithTheLastFraction() {
        scheduler.onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(at(s, spec, "gpu-node-1", List.of(5), 300, QuotaState.IN_QUOTA))));
        JobRecord first = h.deployments.deploy(JobFixtures.fraction("team-a", "f1", 0.3));
        JobRecord second = h.deployments.deploy(JobFixtures.fraction("team-a", "f2", 0.3));
        GpuSlot gpu = new GpuSlot("gpu-node-1", 5);

        assertThat(h.cluster.reservations()).containsOnlyKeys(gpu);
        String uuid = h.cluster.reservations().get(gpu);
        assertThat(uuid).startsWith("GPU-");
        assertThat(first.status().gpus().get(0).uuid()).isEqualTo(uuid);
        assertThat(h.cluster.workloadOf(second.id()).gpus().get(0).uuid()).isEqualTo(uuid);

        h.deployments.delete(first.id());
        assertThat(h.cluster.reservations()).containsOnlyKeys(gpu);
        h.deployments.delete(second.id());
        assertThat(h.cluster.reservations()).isEmpty();
        assertThat(h.store.listAll()).isEmpty();
    }

    @Test
    void aMoveStopsTheJobAndStartsItAtItsNewPlace() {
        scheduler.onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(at(s, spec, "gpu-node-4", List.of(9), 1000, QuotaState.OVER_QUOTA))));
        JobRecord job = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "stray", 1));
        scheduler.onRebalance = s -> new Plan(List.of(new PlanAction.Move(
                s.placed().get(0),
                at(s, s.placed().get(0).spec(), "gpu-node-1", List.of(0), 1000, QuotaState.OVER_QUOTA))));

        Plan plan = h.decisions.defragment(0.1);

        assertThat(plan.actionsOf(PlanAction.Move.class)).hasSize(1);
        JobRecord moved = h.store.find(job.id()).orElseThrow();
        assertThat(moved.phase().holdsCapacity()).isTrue();
        assertThat(moved.status().node()).isEqualTo("gpu-node-1");
        assertThat(h.cluster.workloadOf(job.id()).node()).isEqualTo("gpu-node-1");
        assertThat(h.metrics.preemptions).containsExactly("team-a/stray:defragment");
        assertThat(h.metrics.requeues).as("a move is no re-queue").isEmpty();
        assertThat(h.cluster.events(job.id()))
                .extracting(e -> e.reason())
                .containsExactly("Placed", "Preempted", "Moved");
        assertThat(h.cluster.events(job.id()).get(2).message())
                .startsWith("Moved from gpu-node-4 GPUs [9] to gpu-node-1");
    }

    @Test
    void aFollowerRecordsButLeavesDecisionsToTheLeader() {
        AtomicBoolean leader = new AtomicBoolean(false);
        ScriptedScheduler scripted = new ScriptedScheduler();
        ServiceHarness follower = new ServiceHarness(
                scripted,
                ScriptedScheduler.SIMPLE_VALIDATOR,
                ServiceHarness.fourNodesOfTenGpus(),
                ServiceHarness.twoTeamsOfTwenty(),
                g -> g,
                leader::get);
        scripted.onPending = s -> new Plan(List.of(new PlanAction.Place(
                at(s, s.pending().get(0).spec(), "gpu-node-1", List.of(0), 1000, QuotaState.IN_QUOTA))));

        JobRecord recorded = follower.deployments.deploy(JobFixtures.wholeGpus("team-a", "j", 1));
        assertThat(recorded.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(recorded.status().reason()).contains("leader");
        assertThat(follower.decisions.requeuePending().actions()).isEmpty();
        assertThat(scripted.snapshots).isEmpty();

        leader.set(true);
        follower.decisions.requeuePending();
        assertThat(follower.store.find(new JobId("team-a", "j")).orElseThrow().phase())
                .isEqualTo(JobPhase.PLACED);
        // its first placement, though made by the queue: no re-queue
        assertThat(follower.cluster.events(recorded.id()))
                .extracting(e -> e.reason())
                .containsExactly("Placed");
        assertThat(follower.metrics.requeues).isEmpty();
    }

    @Test
    void finishedJobsReleaseTheirCapacityToTheQueue() {
        scheduler.onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(at(s, spec, "gpu-node-1", List.of(0), 500, QuotaState.IN_QUOTA))));
        JobRecord job = h.deployments.deploy(JobFixtures.fraction("team-a", "half", 0.5));
        assertThat(h.decisions.syncPhases()).isZero();
        assertThat(h.store.find(job.id()).orElseThrow().phase()).isEqualTo(JobPhase.RUNNING);

        h.cluster.finish(job.id(), true);
        assertThat(h.decisions.syncPhases()).isEqualTo(1);

        JobRecord done = h.store.find(job.id()).orElseThrow();
        assertThat(done.phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(h.cluster.reservations()).isEmpty();
        assertThat(h.reports.teams())
                .filteredOn(t -> t.team().name().equals("team-a"))
                .singleElement()
                .satisfies(t -> assertThat(t.allocatedMilli()).isZero());
    }
}

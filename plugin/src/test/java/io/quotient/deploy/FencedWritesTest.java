package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.memory.EmbeddedCluster;
import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replica that stops being the leader while a plan is being applied (it froze past its Lease after the plan's
 * leadership check: SIGSTOP, a long GC) writes no further decision and no further decision event: leadership is
 * asked again right before each one, and the rest of the plan is left to the leader in office. A new job decided
 * just before is recorded undecided, for the leader.
 */
class FencedWritesTest {

    private final ScriptedScheduler scheduler = new ScriptedScheduler();
    private final AtomicBoolean leader = new AtomicBoolean(true);
    /** Run once, right after the next status write: the moment the replica froze and lost the Lease. */
    private final AtomicReference<Runnable> afterStatusWrite = new AtomicReference<>(() -> {});
    /** Run once, right after the next record is created: the same, between a new job's create and its placement. */
    private final AtomicReference<Runnable> afterCreate = new AtomicReference<>(() -> {});
    /** Run once, right after the next event: the same, between an event and its status write. */
    private final AtomicReference<Runnable> afterEvent = new AtomicReference<>(() -> {});

    private final ServiceHarness h = new ServiceHarness(
            scheduler,
            ScriptedScheduler.SIMPLE_VALIDATOR,
            ServiceHarness.fourNodesOfTenGpus(),
            ServiceHarness.twoTeamsOfTwenty(),
            real -> new ForwardingWorkloadGateway(real) {
                @Override
                public void recordEvent(JobId job, String reason, String message) {
                    super.recordEvent(job, reason, message);
                    afterEvent.getAndSet(() -> {}).run();
                }
            },
            leader::get,
            records -> new WatchedStore(records, afterStatusWrite, afterCreate));

    private JobRecord first;
    private JobRecord second;

    @BeforeEach
    void twoJobsWait() {
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.KeepPending(spec.id(), "no free GPU")));
        first = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 1));
        second = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 1));
        scheduler.onPending = s -> new Plan(List.of(
                new PlanAction.Place(PlanApplicationTest.at(
                        s, s.pending().get(0).spec(), "gpu-node-1", List.of(0), 1000, QuotaState.IN_QUOTA)),
                new PlanAction.Place(PlanApplicationTest.at(
                        s, s.pending().get(1).spec(), "gpu-node-1", List.of(1), 1000, QuotaState.IN_QUOTA))));
    }

    @Test
    void aLeaderLostRightAfterAPlacementWriteSendsNoEventAndStopsThePlan() {
        afterStatusWrite.set(() -> leader.set(false));

        h.decisions.requeuePending();

        assertThat(h.store.find(first.id()).orElseThrow().phase())
                .as("written before the Lease was lost")
                .isEqualTo(JobPhase.PLACED);
        assertThat(eventsOf(first.id())).as("its event came after: fenced").containsExactly("Pending");
        assertThat(h.cluster.workloadOf(first.id()))
                .as("the new leader's reconciliation creates it")
                .isNull();
        assertThat(h.store.find(second.id()).orElseThrow().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(eventsOf(second.id())).containsExactly("Pending");
    }

    @Test
    void aLeaderLostBetweenAnEventAndItsStatusWriteWritesNoStatus() {
        scheduler.onPending = s -> new Plan(List.of(
                new PlanAction.KeepPending(first.id(), "no node with 80 GiB of free GPU memory"),
                new PlanAction.Place(PlanApplicationTest.at(
                        s, s.pending().get(1).spec(), "gpu-node-1", List.of(1), 1000, QuotaState.IN_QUOTA))));
        afterEvent.set(() -> leader.set(false));

        h.decisions.requeuePending();

        assertThat(h.store.find(first.id()).orElseThrow().status().reason()).isEqualTo("no free GPU");
        assertThat(h.store.find(second.id()).orElseThrow().phase()).isEqualTo(JobPhase.PENDING);
        assertThat(eventsOf(second.id())).containsExactly("Pending");
    }

    @Test
    void aLeaderThatStaysInOfficeAppliesTheWholePlan() {
        h.decisions.requeuePending();

        assertThat(h.store.find(first.id()).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);
        assertThat(h.store.find(second.id()).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);
        assertThat(eventsOf(second.id())).containsExactly("Pending", "Requeued");
    }

    @Test
    void aNewJobDecidedToWaitJustBeforeTheLeadershipWasLostIsRecordedForTheLeaderWithoutAnEvent() {
        scheduler.onSchedule = (s, spec) -> {
            leader.set(false); // froze after the deploy's leadership check, woke up without the Lease
            return new Plan(List.of(new PlanAction.KeepPending(spec.id(), "no free GPU")));
        };

        JobRecord late = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "late", 1));

        assertThat(h.store.find(late.id()).orElseThrow().status().reason()).isEqualTo(PendingReasons.AWAITING_LEADER);
        assertThat(eventsOf(late.id())).isEmpty();
    }

    @Test
    void aNewJobPlacedJustBeforeTheLeadershipWasLostIsRecordedForTheLeaderNotPlaced() {
        scheduler.onSchedule = (s, spec) -> {
            leader.set(false);
            return new Plan(List.of(new PlanAction.Place(
                    PlanApplicationTest.at(s, spec, "gpu-node-2", List.of(0), 1000, QuotaState.IN_QUOTA))));
        };

        JobRecord late = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "late", 1));

        JobRecord stored = h.store.find(late.id()).orElseThrow();
        assertThat(stored.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(stored.status().reason()).isEqualTo(PendingReasons.AWAITING_LEADER);
        assertThat(eventsOf(late.id())).isEmpty();
        assertThat(h.cluster.workloadOf(late.id())).isNull();
    }

    @Test
    void aNewJobWhoseLeaderFrozeBetweenItsCreateAndItsPlacementIsLeftUndecidedForTheLeader() {
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.Place(
                PlanApplicationTest.at(s, spec, "gpu-node-2", List.of(0), 1000, QuotaState.IN_QUOTA))));
        afterCreate.set(() -> leader.set(false)); // the create was sent late; another replica claimed the records

        JobRecord late = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "late", 1));

        JobRecord stored = h.store.find(late.id()).orElseThrow();
        assertThat(stored.phase())
                .as("the placement decided on the old view is not written")
                .isEqualTo(JobPhase.PENDING);
        assertThat(stored.status()).isEqualTo(JobStatus.undecided());
        assertThat(eventsOf(late.id())).isEmpty();
        assertThat(h.cluster.workloadOf(late.id())).isNull();
    }

    private List<String> eventsOf(JobId job) {
        return h.cluster.events().stream()
                .filter(e -> e.job().equals(job))
                .map(EmbeddedCluster.Event::reason)
                .toList();
    }

    /** The stored records, with hooks run once after a status write and after a create. */
    private static final class WatchedStore extends ForwardingJobRecordStore {

        private final AtomicReference<Runnable> afterStatusWrite;
        private final AtomicReference<Runnable> afterCreate;

        WatchedStore(
                JobRecordStore delegate,
                AtomicReference<Runnable> afterStatusWrite,
                AtomicReference<Runnable> afterCreate) {
            super(delegate);
            this.afterStatusWrite = afterStatusWrite;
            this.afterCreate = afterCreate;
        }

        @Override
        public JobRecord create(JobRecord record) {
            JobRecord created = super.create(record);
            afterCreate.getAndSet(() -> {}).run();
            return created;
        }

        @Override
        public JobRecord updateStatus(JobRecord record, JobStatus status) {
            JobRecord written = super.updateStatus(record, status);
            afterStatusWrite.getAndSet(() -> {}).run();
            return written;
        }
    }

    @Test
    void anInterruptedEvictionIsNotCompletedByAReplicaThatLostTheLease() {
        AtomicInteger checksLeft = new AtomicInteger(Integer.MAX_VALUE);
        ScriptedScheduler placing = new ScriptedScheduler();
        placing.placeEachAt("gpu-node-1", List.of(0), 1000, QuotaState.IN_QUOTA);
        ServiceHarness replica = new ServiceHarness(
                placing,
                ScriptedScheduler.SIMPLE_VALIDATOR,
                ServiceHarness.fourNodesOfTenGpus(),
                ServiceHarness.twoTeamsOfTwenty(),
                g -> g,
                () -> checksLeft.getAndDecrement() > 0);
        JobRecord placed = replica.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 1));
        assertThat(replica.cluster.workloadOf(placed.id())).isNotNull();
        // an eviction interrupted after its record was written (the process froze, a leader change)
        JobRecord current = replica.store.find(placed.id()).orElseThrow();
        replica.store.updateStatus(current, current.status().withPhase(JobPhase.PREEMPTED, "Preempted by team-b"));
        int eventsBefore = replica.cluster.events(placed.id()).size();

        checksLeft.set(1); // the pass starts as leader, then the Lease is gone
        replica.decisions.requeuePending();

        assertThat(replica.cluster.events(placed.id()))
                .as("no Preempted event from a replica that lost the Lease")
                .hasSize(eventsBefore);
        assertThat(replica.cluster.workloadOf(placed.id()))
                .as("its workload is the leader's to stop")
                .isNotNull();
        assertThat(replica.store.find(placed.id()).orElseThrow().phase()).isEqualTo(JobPhase.PREEMPTED);

        checksLeft.set(Integer.MAX_VALUE); // as the leader in office, the same pass completes the eviction
        replica.decisions.requeuePending();
        assertThat(replica.cluster.events(placed.id()))
                .extracting(EmbeddedCluster.Event::reason)
                .last()
                .isEqualTo("Preempted");
        assertThat(replica.cluster.workloadOf(placed.id())).isNull();
    }
}

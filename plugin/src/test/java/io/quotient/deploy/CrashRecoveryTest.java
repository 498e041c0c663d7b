package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The service dies at each step of a deploy or a preemption (the gateway throws as a killed process would stop);
 * the next re-queue, as a new leader's would, converges from the records and the cluster: no duplicate
 * workload, no leaked reservation, no forgotten job.
 */
class CrashRecoveryTest {

    private final ScriptedScheduler scheduler = new ScriptedScheduler();
    private final AtomicReference<FaultyGateway> faulty = new AtomicReference<>();
    private final ServiceHarness h = new ServiceHarness(
            scheduler,
            ScriptedScheduler.SIMPLE_VALIDATOR,
            ServiceHarness.fourNodesOfTenGpus(),
            ServiceHarness.twoTeamsOfTwenty(),
            real -> {
                faulty.set(new FaultyGateway(real));
                return faulty.get();
            },
            LeadershipGate.ALWAYS);

    CrashRecoveryTest() {
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.Place(
                PlanApplicationTest.at(s, spec, "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA))));
    }

    @Test
    void crashAfterTheWorkloadWasCreatedButBeforeItWasObserved() {
        faulty.get().next = FaultyGateway.Fault.AFTER_DEPLOY;

        JobRecord answered = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));
        assertThat(answered.phase()).isEqualTo(JobPhase.PLACED);

        h.decisions.requeuePending();
        h.decisions.requeuePending();

        assertThat(h.cluster.creations(answered.id())).isEqualTo(1);
        assertThat(h.store.find(answered.id()).orElseThrow().phase()).isEqualTo(JobPhase.RUNNING);
    }

    @Test
    void crashAfterThePlacementWasRecordedButBeforeTheWorkloadWasCreated() {
        faulty.get().next = FaultyGateway.Fault.BEFORE_DEPLOY;

        JobRecord answered = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));
        assertThat(h.cluster.workloadOf(answered.id())).isNull();

        h.decisions.requeuePending();

        assertThat(h.cluster.creations(answered.id())).isEqualTo(1);
        assertThat(h.cluster.workloadOf(answered.id()).node()).isEqualTo("gpu-node-1");
    }

    @Test
    void crashInTheMiddleOfAPreemption() {
        JobRecord borrower = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "borrower", 2));
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(
                new PlanAction.Evict(borrower.id(), "Preempted by team-b reclaiming its guarantee"),
                new PlanAction.Place(
                        PlanApplicationTest.at(s, spec, "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA))));
        faulty.get().next = FaultyGateway.Fault.BEFORE_STOP;

        JobRecord owner = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "owner", 2));

        // died after recording the eviction: the borrower is marked, still runs; the owner waits, nothing is lost
        assertThat(h.store.find(borrower.id()).orElseThrow().phase()).isEqualTo(JobPhase.PREEMPTED);
        assertThat(owner.phase()).isEqualTo(JobPhase.PENDING);
        scheduler.onPending = s -> s.pending().stream()
                .filter(p -> p.spec().id().equals(owner.id()))
                .findFirst()
                .<Plan>map(p -> new Plan(List.of(new PlanAction.Place(
                        PlanApplicationTest.at(s, p.spec(), "gpu-node-1", List.of(0, 1), 1000, QuotaState.IN_QUOTA)))))
                .orElse(Plan.EMPTY);

        h.decisions.requeuePending();

        JobRecord evicted = h.store.find(borrower.id()).orElseThrow();
        assertThat(evicted.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(evicted.status().reason()).startsWith("Preempted by team-b");
        assertThat(h.cluster.workloadOf(borrower.id())).isNull();
        assertThat(h.store.find(owner.id()).orElseThrow().phase().holdsCapacity())
                .isTrue();
        assertThat(h.cluster.workloadOf(owner.id()).node()).isEqualTo("gpu-node-1");
        assertThat(h.cluster.creations(owner.id())).isEqualTo(1);
        // the Event of the interrupted eviction may have died with the process: it is said again
        assertThat(h.cluster.events(borrower.id()))
                .extracting(e -> e.reason())
                .containsExactly("Placed", "Preempted", "Preempted");
        assertThat(h.cluster.events(borrower.id()).get(2).message())
                .startsWith("Preempted by team-b")
                .contains("eviction completed after an interruption");
    }

    @Test
    void leftoversWithoutARecordAreCleanedUp() {
        GpuSlot leaked = new GpuSlot("gpu-node-2", 3);
        h.cluster.ensureReservation(leaked);
        JobRecord ghost = JobFixtures.pendingRecord("team-a", "ghost", 1, Instant.now());
        h.cluster.deploy(
                ghost,
                new PlacedJob(ghost.spec(), "gpu-node-3", List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                List.of(new GpuBinding(0, null, 1.0)));

        h.decisions.requeuePending();

        assertThat(h.cluster.reservations()).isEmpty();
        assertThat(h.cluster.workloads()).isEmpty();
    }

    @Test
    void aRunningJobWhoseWorkloadVanishedIsReportedFailedAndFreesItsGpus() {
        JobRecord job = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "train", 2));
        h.decisions.syncPhases();
        h.cluster.stop(job.id(), Duration.ZERO); // someone deleted the Job by hand

        h.decisions.requeuePending();

        JobRecord failed = h.store.find(job.id()).orElseThrow();
        assertThat(failed.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(failed.status().reason()).contains("deleted outside Quotient");
        assertThat(h.cluster.creations(job.id())).isEqualTo(1);
        assertThat(h.store.find(new JobId("team-a", "train"))).isPresent();
    }

    @Test
    void aReservationDeletedWhileFractionsUseItIsMadeAgainAndOneNoLongerNeededIsNot() {
        scheduler.placeEachAt("gpu-node-3", List.of(2), 500, QuotaState.IN_QUOTA);
        JobRecord half = h.deployments.deploy(JobFixtures.fraction("team-a", "half", 0.5));
        GpuSlot gpu = new GpuSlot("gpu-node-3", 2);
        h.cluster.releaseReservation(gpu); // deleted by hand

        h.decisions.requeuePending();
        assertThat(h.cluster.reservations()).containsOnlyKeys(gpu);

        h.deployments.delete(half.id());
        h.decisions.requeuePending();
        assertThat(h.cluster.reservations()).isEmpty();
    }
}

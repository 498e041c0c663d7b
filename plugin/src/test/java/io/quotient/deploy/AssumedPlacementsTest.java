package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A new job is recorded with its placement after the decision lock is released: meanwhile the next decisions count
 * it as placed, decisions that evict or reconcile wait for it, and a failed write leaves nothing recorded or booked.
 */
@Timeout(30)
class AssumedPlacementsTest {

    private final HeldStatusWrites held = new HeldStatusWrites();
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            ScriptedScheduler.SIMPLE_VALIDATOR,
            List.of(new NodeSpec("gpu-node-1", 64_000, 512_000, 2, "A100", 81_920)),
            Map.of("team-a", Team.of("team-a", 2)),
            gateway -> gateway,
            LeadershipGate.ALWAYS,
            held::around);

    @AfterEach
    void releaseAnyHeldWrite() {
        held.release.countDown();
    }

    @Test
    void aPlacementBeingWrittenKeepsItsGpusFromTheNextDeploy() throws Exception {
        CompletableFuture<JobRecord> first = deployWithHeldWrite("first", 2);
        assertThat(h.store.find(id("first"))).as("not recorded yet").isEmpty();

        JobRecord second = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 1));
        held.release.countDown();

        assertThat(second.phase())
                .as("both GPUs are taken by the first job's placement")
                .isEqualTo(JobPhase.PENDING);
        JobRecord placed = first.get(10, TimeUnit.SECONDS);
        assertThat(placed.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(placed.status().gpus()).hasSize(2);
        assertThat(h.cluster.workloadOf(placed.id())).isNotNull();
    }

    @Test
    void aFailedRecordWriteLeavesNothingRecordedAndTheGpusFree() {
        held.hold("first", true);
        held.release.countDown();

        assertThatThrownBy(() -> h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 2)))
                .hasMessageContaining("simulated API error");
        JobRecord second = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 2));

        assertThat(h.store.find(id("first"))).isEmpty();
        assertThat(h.cluster.workloadOf(id("first")))
                .as("no workload without a record")
                .isNull();
        assertThat(second.phase()).isEqualTo(JobPhase.PLACED);
    }

    @Test
    void aNameBeingRecordedIsTakenForASecondDeploy() throws Exception {
        CompletableFuture<JobRecord> first = deployWithHeldWrite("first", 1);

        assertThatThrownBy(() -> h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 1)))
                .isInstanceOf(JobAlreadyExistsException.class);
        held.release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).phase()).isEqualTo(JobPhase.PLACED);
        assertThat(h.store.listAll()).hasSize(1);
    }

    @Test
    void theQueueWaitsForPlacementsBeingWrittenAndPlacesNothingTwice() throws Exception {
        CompletableFuture<JobRecord> first = deployWithHeldWrite("first", 2);
        assertThat(requeueWhileTheWriteIsHeld()).containsExactly("write released", "requeue done");
        assertThat(first.get(10, TimeUnit.SECONDS).phase()).isEqualTo(JobPhase.PLACED);
        assertThat(h.metrics.requeues)
                .as("the re-queue found the job placed, not waiting")
                .isEmpty();
    }

    @Test
    void theQueueWaitsForTheRecordOfANewJobDecidedToWait() throws Exception {
        CompletableFuture<JobRecord> tooBig = deployWithHeldWrite("too-big", 3);
        assertThat(requeueWhileTheWriteIsHeld()).containsExactly("write released", "requeue done");
        assertThat(tooBig.get(10, TimeUnit.SECONDS).phase()).isEqualTo(JobPhase.PENDING);
        assertThat(tooBig.get().status().reason()).isNotBlank();
    }

    @Test
    void waitingForAssumedPlacementsEndsWhenTheyAreSettledOrAfterTheMaximum() throws Exception {
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "one", 1));
        PlacedJob placement = Placements.of(h.store.find(id("one")).orElseThrow());
        AssumedPlacements impatient = new AssumedPlacements(Duration.ofMillis(100));
        assertThat(impatient.awaitNone()).as("nothing assumed").isTrue();

        impatient.assume(placement);
        assertThat(impatient.current()).containsOnlyKeys(id("one"));
        assertThat(impatient.awaitNone()).as("nobody settles it").isFalse();

        AssumedPlacements patient = new AssumedPlacements(Duration.ofSeconds(10));
        patient.assume(placement);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(patient::awaitNone);
        patient.settle(id("one"));
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(patient.current()).isEmpty();
    }

    /**
     * Runs a re-queue while a record write is held, releasing the write after giving the re-queue time to go ahead
     * wrongly; returns the order in which the two ended.
     */
    private List<String> requeueWhileTheWriteIsHeld() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> requeue = CompletableFuture.runAsync(() -> {
            h.decisions.requeuePending();
            order.add("requeue done");
        });
        Thread.sleep(200);
        order.add("write released");
        held.release.countDown();
        requeue.get(10, TimeUnit.SECONDS);
        return order;
    }

    /** Deploys a job whose record write is held until {@code held.release}; returns once the write has begun. */
    private CompletableFuture<JobRecord> deployWithHeldWrite(String name, int gpus) throws InterruptedException {
        held.hold(name, false);
        CompletableFuture<JobRecord> deploy =
                CompletableFuture.supplyAsync(() -> h.deployments.deploy(JobFixtures.wholeGpus("team-a", name, gpus)));
        held.started.await(10, TimeUnit.SECONDS);
        return deploy;
    }

    private static JobId id(String name) {
        return new JobId("team-a", name);
    }

    /** Holds (and optionally fails) the writes of one job's record until released. */
    private static final class HeldStatusWrites {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private volatile String job;
        private volatile boolean fail;

        void hold(String name, boolean failIt) {
            job = name;
            fail = failIt;
        }

        JobRecordStore around(JobRecordStore real) {
            return new ForwardingJobRecordStore(real) {
                @Override
                public JobRecord create(JobRecord record) {
                    holdOrFail(record);
                    return super.create(record);
                }

                @Override
                public JobRecord updateStatus(JobRecord record, JobStatus status) {
                    holdOrFail(record);
                    return super.updateStatus(record, status);
                }
            };
        }

        private void holdOrFail(JobRecord record) {
            if (record.id().name().equals(job) && started.getCount() > 0) {
                started.countDown();
                await(release);
                if (fail) {
                    throw new IllegalStateException("simulated API error writing the record of " + job);
                }
            }
        }

        private static void await(CountDownLatch latch) {
            try {
                latch.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

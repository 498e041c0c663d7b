package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadRef;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Pods governed at admission: decided at once on the leader, admitted only placed (a share with its reserved GPU's
 * UUID), refused with the job's reason while it waits; the job lives as long as its pod, and a placement whose pod
 * does not come is given up after the grace.
 */
class PodAdmissionsTest {

    private static final JobId NB = new JobId("team-a", "nb-0");
    private final AtomicBoolean leader = new AtomicBoolean(true);
    /** As the Kubernetes gateway: a pod is created by its controller, never by a deploy. */
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            validator(),
            List.of(new NodeSpec("gpu-node-1", 64_000, 512_000, 2, "A100", 81_920)),
            Map.of("team-a", Team.of("team-a", 2), "team-b", Team.of("team-b", 0)),
            gateway -> new ForwardingWorkloadGateway(gateway) {
                @Override
                public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
                    if (!record.submission().adopted()
                            || !record.submission().workload().isPod()) {
                        super.deploy(record, placement, gpus);
                    }
                }
            },
            leader::get,
            store -> store);

    private static RequestValidator validator() {
        JobSpecValidator validator = new JobSpecValidator();
        return (input, teams) -> validator.validateRequest(input);
    }

    private static JobRequestInput pod(String name, Integer gpus, Double fraction) {
        BigDecimal share = fraction == null ? null : GpuAsk.decimal(fraction);
        return JobRequestInput.of("team-a", name)
                .with(new GpuAsk(gpus, share, share, null, null, fraction == null ? null : 1))
                .with(new RuntimeOptions(null, false, null));
    }

    /** The pod, admitted, is created by its controller: the cluster shows it running. */
    private void podRuns(JobId job) {
        JobRecord record = h.store.find(job).orElseThrow();
        h.cluster.deploy(record, Placements.of(record), record.status().gpus());
    }

    @Test
    void aWholeGpuPodIsPlacedAtItsFirstCreateAndAdmittedOnItsNode() {
        PodVerdict verdict = h.pods.admit("ml-a", pod("nb-0", 1, null));

        assertThat(verdict).isInstanceOfSatisfying(PodVerdict.Admit.class, admit -> {
            assertThat(admit.record().status().node()).isEqualTo("gpu-node-1");
            assertThat(admit.gpus()).hasSize(1);
            assertThat(admit.gpuMemoryMib()).isEqualTo(81_920);
        });
        JobRecord record = h.store.find(NB).orElseThrow();
        assertThat(record.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(record.submission().workload()).isEqualTo(WorkloadRef.pod("nb-0"));
        assertThat(record.submission().pod().namespace()).isEqualTo("ml-a");
        assertThat(record.spec().preemptible())
                .as("a notebook stays within its team's guarantee")
                .isFalse();
        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null)))
                .as("a retry of the create finds the placement")
                .isInstanceOf(PodVerdict.Admit.class);
    }

    @Test
    void twoHalfGpuPodsShareOneReservedGpuAndGetItsUuid() {
        PodVerdict first = h.pods.admit("ml-a", pod("nb-0", null, 0.5));
        PodVerdict second = h.pods.admit("ml-a", pod("nb2-0", null, 0.5));

        String uuid = h.cluster.reservations().values().iterator().next();
        assertThat(h.cluster.reservations()).hasSize(1);
        for (PodVerdict verdict : List.of(first, second)) {
            assertThat(verdict)
                    .isInstanceOfSatisfying(
                            PodVerdict.Admit.class,
                            admit -> assertThat(admit.gpus()).singleElement().satisfies(g -> {
                                assertThat(g.uuid()).isEqualTo(uuid);
                                assertThat(g.milli()).isEqualTo(500);
                            }));
        }
    }

    @Test
    void aPodBeyondItsTeamsGuaranteeWaitsWithTheReasonAndIsAdmittedOnceTheQueuePlacesIt() {
        assertThat(h.pods.admit("ml-a", pod("big-0", 2, null))).isInstanceOf(PodVerdict.Admit.class);
        podRuns(new JobId("team-a", "big-0"));
        h.decisions.requeuePending(); // its record says Running

        PodVerdict waits = h.pods.admit("ml-a", pod("nb-0", 1, null));

        assertThat(waits)
                .isInstanceOfSatisfying(
                        PodVerdict.Wait.class,
                        wait -> assertThat(wait.reason()).contains("team-a").contains("guarantee"));
        JobRecord pending = h.store.find(NB).orElseThrow();
        assertThat(pending.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(pending.status().reason()).isEqualTo(((PodVerdict.Wait) waits).reason());
        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null)))
                .as("the retry waits too")
                .isInstanceOf(PodVerdict.Wait.class);

        h.cluster.stop(new JobId("team-a", "big-0"), Duration.ZERO); // the big notebook is stopped: its pod goes
        h.decisions.requeuePending();

        assertThat(h.store.find(new JobId("team-a", "big-0")))
                .as("its job ends with its pod")
                .isEmpty();
        assertThat(h.store.find(NB).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);
        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null))).isInstanceOf(PodVerdict.Admit.class);
    }

    @Test
    void aPodNamedLikeAJobOfTheApiIsRefused() {
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "nb-0", 1));

        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null)))
                .isInstanceOfSatisfying(
                        PodVerdict.Refuse.class,
                        refuse -> assertThat(refuse.reason())
                                .isEqualTo("job nb-0 of team team-a exists already and governs a"
                                        + " job deployed through Quotient's API; rename the pod or delete that job"));
    }

    @Test
    void aPodOfTheSameNameInAnotherNamespaceOfTheTeamIsRefused() {
        h.pods.admit("ml-a", pod("nb-0", 1, null));

        assertThat(h.pods.admit("ml-a2", pod("nb-0", 1, null)))
                .isInstanceOfSatisfying(
                        PodVerdict.Refuse.class,
                        refuse -> assertThat(refuse.reason())
                                .isEqualTo("job nb-0 of team team-a exists already and governs"
                                        + " Pod nb-0 in namespace ml-a; rename the pod or delete that job"));
    }

    @Test
    void anUnknownTeamIsRefusedAndNothingIsRecorded() {
        JobRequestInput other =
                JobRequestInput.of("team-x", "nb-0").with(GpuAsk.whole(1)).with(new RuntimeOptions(null, false, null));

        assertThat(h.pods.admit("ml-x", other))
                .isInstanceOfSatisfying(
                        PodVerdict.Refuse.class,
                        refuse -> assertThat(refuse.reason()).contains("team-x"));
        assertThat(h.store.listAll()).isEmpty();
    }

    @Test
    void onAFollowerThePodIsRecordedUndecidedAndAdmittedOnceTheLeaderPlacedIt() {
        leader.set(false);
        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null)))
                .isInstanceOfSatisfying(
                        PodVerdict.Wait.class, wait -> assertThat(wait.reason()).contains("leader"));

        leader.set(true);
        h.decisions.requeuePending();

        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null))).isInstanceOf(PodVerdict.Admit.class);
    }

    @Test
    void aPlacementWhosePodDoesNotComeIsGivenUpAfterTheGrace() {
        h.pods.admit("ml-a", pod("nb-0", null, 0.5));
        h.decisions.requeuePending();
        assertThat(h.store.find(NB).orElseThrow().phase())
                .as("within the grace")
                .isEqualTo(JobPhase.PLACED);

        h.clock.advance(Reconciler.DEFAULT_POD_ARRIVAL_GRACE.plusSeconds(1));
        h.decisions.requeuePending();

        assertThat(h.store.find(NB)).isEmpty();
        assertThat(h.cluster.reservations())
                .as("its GPU's reservation is released")
                .isEmpty();
    }

    @Test
    void aRunningPodJobEndsWhenItsPodIsGoneAndANewCreateIsANewRun() {
        h.pods.admit("ml-a", pod("nb-0", null, 0.5));
        podRuns(NB);
        h.decisions.requeuePending();
        assertThat(h.store.find(NB).orElseThrow().phase()).isEqualTo(JobPhase.RUNNING);

        h.cluster.stop(NB, Duration.ZERO); // the notebook is stopped: its StatefulSet scaled to 0
        h.decisions.requeuePending();

        assertThat(h.store.find(NB)).isEmpty();
        assertThat(h.cluster.reservations()).isEmpty();
        assertThat(h.pods.admit("ml-a", pod("nb-0", null, 0.5))).isInstanceOf(PodVerdict.Admit.class);
    }

    @Test
    void aPreemptedPodJobHasItsPodDeletedAndItsNextCreateWaitsWithThePreemption() {
        JobRequestInput borrowing =
                JobRequestInput.of("team-b", "nb-0").with(GpuAsk.whole(2)).with(new RuntimeOptions(null, true, null));
        assertThat(h.pods.admit("ml-b", borrowing)).isInstanceOf(PodVerdict.Admit.class);
        JobId borrowed = new JobId("team-b", "nb-0");
        podRuns(borrowed);

        h.deployments.deploy(JobFixtures.inQuotaOnly("team-a", "train", 2)); // team-a reclaims its guarantee

        assertThat(h.cluster.workloadOf(borrowed)).as("the pod is deleted").isNull();
        JobRecord requeued = h.store.find(borrowed).orElseThrow();
        assertThat(requeued.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(h.pods.admit("ml-b", borrowing))
                .as("its StatefulSet's new pod waits")
                .isInstanceOfSatisfying(
                        PodVerdict.Wait.class, wait -> assertThat(wait.reason()).startsWith("Preempted"));
    }

    @Test
    void aPodWhoseEarlierRunFinishedIsDecidedAgain() {
        h.pods.admit("ml-a", pod("nb-0", 1, null));
        podRuns(NB);
        h.cluster.finish(NB, true);
        h.decisions.syncPhases();
        assertThat(h.store.find(NB).orElseThrow().phase()).isEqualTo(JobPhase.SUCCEEDED);

        assertThat(h.pods.admit("ml-a", pod("nb-0", 1, null))).isInstanceOf(PodVerdict.Admit.class);
        assertThat(h.store.find(NB).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);
    }
}

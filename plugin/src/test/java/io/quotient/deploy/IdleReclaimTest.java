package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.idle.IdleDecider;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import io.quotient.deploy.port.IdleCondition;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The idle pass on the embedded cluster, as the service runs it: one node of two GPUs, team {@code lab} (guarantee
 * 1, idle policy on notebooks, action stop) runs a REST notebook, team {@code prod} a training job, and team
 * {@code queue} waits for a GPU. The embedded cluster reports the pod counters an enforcer would.
 */
class IdleReclaimTest {

    private static final IdlePolicy POLICY = new IdlePolicy(
            Set.of(JobKind.NOTEBOOK), Duration.ofMinutes(30), Duration.ofMinutes(20), 0.05, true, IdleAction.STOP);
    private static final Map<String, Team> TEAMS = Map.of(
            "lab", new Team("lab", 1000, Team.UNLIMITED, 1, 0).withIdle(POLICY),
            "prod", new Team("prod", 1000, Team.UNLIMITED, 1, 0),
            "queue", new Team("queue", 0, Team.UNLIMITED, 1, 0));
    private static final JobId NOTEBOOK = new JobId("lab", "nb");
    private static final JobId WAITER = new JobId("queue", "waiter");

    private final JobSpecValidator validator = new JobSpecValidator();
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            (input, teams) -> validator.validateRequest(input),
            List.of(new NodeSpec("node-0", 64_000, 262_144, 2, "A100", 81_920)),
            TEAMS,
            gateway -> gateway,
            LeadershipGate.ALWAYS);
    /** The Notebooks stopped, by the job whose pod they run. */
    private final List<JobId> stopped = new ArrayList<>();

    private final IdleReclaim idle = new IdleReclaim(
            h.store,
            h.cluster,
            new SnapshotBuilder(h.cluster, () -> TEAMS, h.clock),
            new IdleDecider(new QuotaScheduler("quotient", 0, TargetWorkload.typical())),
            new IdleRelease(
                    h.store,
                    h.transitions,
                    h.cluster,
                    (record, at) -> stopped.add(record.id()),
                    h.clock,
                    Duration.ofSeconds(30)),
            h.notes,
            LeadershipGate.ALWAYS);
    private final Instant countingSince;

    IdleReclaimTest() {
        countingSince = h.clock.instant();
        h.deployments.deploy(kind(JobFixtures.wholeGpus("lab", "nb", 1), "notebook"));
        h.deployments.deploy(JobFixtures.wholeGpus("prod", "train", 1));
    }

    private static JobSubmission kind(JobSubmission s, String kind) {
        return s.withRequest(s.request().withKind(kind));
    }

    /** Both placed jobs' counters after {@code minutes}: the notebook at {@code notebookUse}, training busy. */
    private void report(long minutes, double notebookUse) {
        at(minutes);
        double seconds = minutes * 60.0;
        List<PodCounterReading> readings = new ArrayList<>();
        readings.add(new PodCounterReading(
                "node-0",
                "uid-nb",
                "gpu-0",
                NOTEBOOK,
                new PodCounters(countingSince, seconds, seconds, notebookUse * seconds, 0)));
        readings.add(new PodCounterReading(
                "node-0",
                "uid-train",
                "gpu-1",
                new JobId("prod", "train"),
                new PodCounters(countingSince, seconds, seconds, 0.9 * seconds, 0)));
        h.cluster.reportPodUsage(readings);
    }

    private void at(long minutes) {
        h.clock.advance(Duration.between(h.clock.instant(), countingSince.plus(Duration.ofMinutes(minutes))));
    }

    private JobRecord record(JobId job) {
        return h.store.find(job).orElseThrow();
    }

    @Test
    void anIdleNotebookIsWarnedThenStoppedForTheJobThatWaitsWhichIsPlaced() {
        assertThat(record(NOTEBOOK).spec().kind()).isEqualTo(JobKind.NOTEBOOK);
        h.deployments.deploy(JobFixtures.wholeGpus("queue", "waiter", 1));
        assertThat(record(WAITER).phase()).isEqualTo(JobPhase.PENDING);

        report(21, 0.01);
        h.decisions.releaseIdle(idle);
        IdleCondition warned = record(NOTEBOOK).status().idle();
        assertThat(warned.reason()).isEqualTo(IdleCondition.WARNING);
        assertThat(warned.message()).contains("idle for 21 min").contains("job waiter of team queue waits for them");
        assertThat(h.cluster.events(NOTEBOOK)).extracting(e -> e.reason()).contains("IdleWarning");
        assertThat(record(new JobId("prod", "train")).status().idle())
                .as("not watched")
                .isNull();

        h.decisions.requeuePending();
        assertThat(record(WAITER).status().reason())
                .contains("would be placed when idle notebook nb of team lab (1 GPU) is released");

        report(31, 0.01);
        h.decisions.releaseIdle(idle);
        JobRecord stopped = record(NOTEBOOK);
        assertThat(stopped.phase()).isEqualTo(JobPhase.FAILED);
        assertThat(stopped.status().reason())
                .startsWith("Stopped: idle: notebook nb of team lab (1 GPU) has used its GPUs at 1.0 %")
                .contains("for job waiter of team queue, which waits for them");
        assertThat(stopped.status().idle().reason()).isEqualTo(IdleCondition.RELEASED);
        assertThat(h.cluster.events(NOTEBOOK)).extracting(e -> e.reason()).contains("IdleReleased");
        assertThat(h.cluster.workloadOf(NOTEBOOK)).as("its workload stopped").isNull();
        assertThat(record(WAITER).phase()).as("placed in the same pass").isEqualTo(JobPhase.PLACED);
    }

    @Test
    void anIdleNotebookNobodyWaitsForIsWarnedAndKeptAndBusyAgainLosesItsWarning() {
        report(45, 0.0);
        h.decisions.releaseIdle(idle);
        JobRecord kept = record(NOTEBOOK);
        assertThat(kept.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(kept.status().idle().message()).contains("kept: no waiting job would be placed");

        at(46);
        double seconds = 46 * 60.0;
        h.cluster.reportPodUsage(List.of(new PodCounterReading(
                "node-0",
                "uid-nb",
                "gpu-0",
                NOTEBOOK,
                new PodCounters(countingSince, seconds, seconds, 50, 0)))); // 50 busy GPU-seconds in the last minute
        h.decisions.releaseIdle(idle);
        assertThat(record(NOTEBOOK).status().idle()).isNull();
    }

    @Test
    void anIdleNotebookPodIsReleasedByStoppingItsNotebookOnceAndItsJobKeepsItsGpusUntilThePodIsGone() {
        h.deployments.delete(NOTEBOOK);
        JobId pod = new JobId("lab", "nb-0");
        h.pods.admit(
                "lab",
                JobRequestInput.of("lab", "nb-0")
                        .with(new GpuAsk(1, null, null, null, null, null))
                        .withKind("notebook"));
        assertThat(record(pod).phase()).isEqualTo(JobPhase.PLACED);
        h.deployments.deploy(JobFixtures.wholeGpus("queue", "waiter", 1));
        at(31);
        double seconds = 31 * 60.0;
        h.cluster.reportPodUsage(List.of(new PodCounterReading(
                "node-0", "uid-nb", "gpu-0", pod, new PodCounters(countingSince, seconds, seconds, 0, 0))));

        h.decisions.releaseIdle(idle);
        h.decisions.releaseIdle(idle);

        assertThat(stopped).as("stopped once, the Kubeflow way").containsExactly(pod);
        JobRecord released = record(pod);
        assertThat(released.phase())
                .as("its pod still runs until the controller removes it")
                .isEqualTo(JobPhase.PLACED);
        assertThat(released.status().idle().reason()).isEqualTo(IdleCondition.RELEASED);
        assertThat(released.status().idle().message()).contains("for job waiter of team queue, which waits for them");
        assertThat(h.cluster.events(pod))
                .filteredOn(e -> e.reason().equals("IdleReleased"))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).endsWith(": its Notebook is stopped"));
    }

    @Test
    void aReclaimPreemptionKeepsTheJobsPlaceInTheQueue() {
        h.decisions.remove(new JobId("prod", "train"));
        JobId borrower = new JobId("queue", "borrower");
        h.deployments.deploy(JobFixtures.wholeGpus("queue", "borrower", 1));
        assertThat(record(borrower).phase()).isEqualTo(JobPhase.PLACED);
        at(5);
        h.deployments.deploy(JobFixtures.wholeGpus("prod", "back", 1));

        JobRecord reclaimed = record(borrower);
        assertThat(reclaimed.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(reclaimed.queuedAt())
                .as("only an idle release moves a job to the back of the queue")
                .isEqualTo(reclaimed.createdAt());
    }
}

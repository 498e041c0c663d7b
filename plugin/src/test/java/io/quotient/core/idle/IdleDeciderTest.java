package io.quotient.core.idle;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.QuotaScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The idle policy's decisions on a node of two GPUs: team {@code lab} (guarantee 1 GPU, idle policy on notebooks)
 * runs a notebook on one GPU, team {@code prod} (guarantee 1) a training job on the other; team {@code queue} (no
 * guarantee) may wait for one GPU. Idle stretches are fed to the detector as the enforcers' samples would be.
 */
class IdleDeciderTest {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    private static final IdlePolicy NOTEBOOKS = new IdlePolicy(
            Set.of(JobKind.NOTEBOOK), Duration.ofMinutes(30), Duration.ofMinutes(20), 0.05, true, IdleAction.PREEMPT);
    private static final NodeSpec NODE = new NodeSpec("node-0", 64_000, 262_144, 2, "A100", 81_920);

    private final IdleDetector detector = new IdleDetector();
    private final IdleDecider decider = new IdleDecider(QuotaScheduler.withDefaults());
    private final List<PlacedJob> placed = new ArrayList<>();
    private final List<PendingJob> pending = new ArrayList<>();
    private final Map<String, Team> teams = new LinkedHashMap<>();
    /** The jobs a release re-queues (preempted); the others end (a stopped Notebook). */
    private final Set<JobId> requeued = new HashSet<>();

    IdleDeciderTest() {
        lab(NOTEBOOKS);
        teams.put("prod", new Team("prod", 1000, Team.UNLIMITED, 1, 0));
        teams.put("queue", new Team("queue", 0, Team.UNLIMITED, 1, 0));
        placed.add(placed("prod", "train", JobKind.TRAIN, 1));
    }

    private void lab(IdlePolicy policy) {
        teams.put("lab", new Team("lab", 1000, Team.UNLIMITED, 1, 0).withIdle(policy));
    }

    private static JobSpec spec(String team, String name, JobKind kind, int gpus) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                0,
                0,
                Set.of(),
                0,
                true,
                Duration.ZERO,
                null,
                kind);
    }

    private static PlacedJob placed(String team, String name, JobKind kind, int gpu) {
        return new PlacedJob(
                spec(team, name, kind, 1),
                NODE.name(),
                List.of(gpu),
                1000,
                QuotaState.IN_QUOTA,
                NOW.minus(Duration.ofHours(2)));
    }

    private void waiting() {
        pending.add(new PendingJob(spec("queue", "waiter", JobKind.TRAIN, 1), NOW.minusSeconds(60)));
    }

    /** The job's GPUs at {@code utilisation} from {@code minutesAgo} until now. */
    private void used(String team, String name, double utilisation, long minutesAgo) {
        detector.record(
                new JobUtilisation(new JobId(team, name), NOW.minus(Duration.ofMinutes(minutesAgo)), NOW, utilisation),
                teams.get(team).idle().threshold());
    }

    private List<IdleVerdict> decide() {
        SchedulingSnapshot snapshot = new SchedulingSnapshot(List.of(NODE), Set.of(), placed, pending, teams, NOW);
        return decider.decide(snapshot, detector, requeued::contains);
    }

    private Optional<IdleVerdict> verdict(String name) {
        return decide().stream().filter(v -> v.job().name().equals(name)).findFirst();
    }

    @Test
    void aBusyNotebookIsKept() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.60, 45);

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.BUSY);
        assertThat(v.waiter()).isEmpty();
    }

    @Test
    void anIdleNotebookIsReleasedForAJobThatWaitsForItsGpu() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.01, 31);

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.RELEASE);
        assertThat(v.waiter()).contains(new JobId("queue", "waiter"));
        assertThat(v.idleSince()).isEqualTo(NOW.minus(Duration.ofMinutes(31)));
        assertThat(v.explanation())
                .contains("notebook nb of team lab (1 GPU)")
                .contains("1.0 %")
                .contains("threshold 5.0 %")
                .contains("since 2026-12-02T09:29:00Z")
                .contains("idle for 31 min")
                .contains("limit of 30 min")
                .contains("for job waiter of team queue, which waits for them");
        assertThat(v.waiterNote()).startsWith("would be placed when idle notebook nb of team lab (1 GPU) is released");
    }

    @Test
    void anIdleNotebookNobodyWaitsForIsKeptWhenOnlyWhenOthersWait() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        used("lab", "nb", 0.0, 60);

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.WARNED);
        assertThat(v.explanation()).contains("idle for 60 min").contains("kept: no waiting job would be placed");
    }

    @Test
    void aJobThatWouldFitAnywayIsNoWaiterForTheIdleNotebook() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        placed.removeIf(p -> p.id().name().equals("train")); // the other GPU is free: the waiter needs no release
        waiting();
        used("lab", "nb", 0.0, 60);

        assertThat(verdict("nb").orElseThrow().state()).isEqualTo(IdleState.WARNED);
    }

    @Test
    void anIdleNotebookIsReleasedWithoutWaitersWhenThePolicySaysAlways() {
        lab(new IdlePolicy(
                Set.of(JobKind.NOTEBOOK),
                Duration.ofMinutes(30),
                Duration.ofMinutes(20),
                0.05,
                false,
                IdleAction.STOP));
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        used("lab", "nb", 0.0, 31);

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.RELEASE);
        assertThat(v.action()).isEqualTo(IdleAction.STOP);
        assertThat(v.explanation()).contains("whether or not others wait");
    }

    @Test
    void anIdleTrainingJobIsLeftAloneUnlessItsTeamOptsIn() {
        placed.add(placed("lab", "batch", JobKind.TRAIN, 0));
        waiting();
        used("lab", "batch", 0.0, 90);

        assertThat(verdict("batch")).as("not watched: no verdict at all").isEmpty();

        lab(new IdlePolicy(
                Set.of(JobKind.NOTEBOOK, JobKind.TRAIN),
                Duration.ofMinutes(30),
                Duration.ofMinutes(20),
                0.05,
                true,
                IdleAction.PREEMPT));
        IdleVerdict v = verdict("batch").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.RELEASE);
        assertThat(v.explanation()).startsWith("training job batch of team lab");
    }

    @Test
    void aNotebookIdleForWarnAfterIsWarnedBeforeItIsReleased() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.02, 19);
        assertThat(verdict("nb").orElseThrow().state())
                .as("idle 19 min: not yet")
                .isEqualTo(IdleState.BUSY);

        detector.retainOnly(Set.of());
        used("lab", "nb", 0.02, 25);
        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.WARNED);
        assertThat(v.explanation())
                .contains("idle for 25 min")
                .contains("released at 2026-12-02T10:05:00Z if a job waits for them")
                .contains("job waiter of team queue waits for them");
        assertThat(v.waiter()).contains(new JobId("queue", "waiter"));
        assertThat(v.waiterNote()).contains("released from 2026-12-02T10:05:00Z");
    }

    @Test
    void utilisationJustAboveTheThresholdIsBusyAndAtItIdle() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.051, 45);
        assertThat(verdict("nb").orElseThrow().state()).isEqualTo(IdleState.BUSY);

        used("lab", "nb", 0.05, 40);
        assertThat(verdict("nb").orElseThrow().state()).isEqualTo(IdleState.RELEASE);
    }

    @Test
    void aBusySampleEndsTheIdleStretch() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.0, 45);
        used("lab", "nb", 0.5, 1);

        assertThat(verdict("nb").orElseThrow().state()).isEqualTo(IdleState.BUSY);
        assertThat(detector.idleness(new JobId("lab", "nb"))).isEmpty();
    }

    @Test
    void anIdleJobThatWouldBeReplacedFirstOnItsReturnToTheQueueIsNotReleased() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.0, 45);
        requeued.add(new JobId("lab", "nb"));

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state())
                .as("preempted, it is in its team's guarantee and placed again before the borrowing waiter")
                .isEqualTo(IdleState.WARNED);
        assertThat(v.waiter()).isEmpty();
    }

    @Test
    void oneWaiterReleasesOneIdleNotebookOnly() {
        placed.removeIf(p -> p.id().name().equals("train"));
        placed.add(placed("lab", "old", JobKind.NOTEBOOK, 0));
        placed.add(placed("lab", "young", JobKind.NOTEBOOK, 1));
        teams.put("lab", new Team("lab", 2000, Team.UNLIMITED, 1, 0).withIdle(NOTEBOOKS));
        waiting();
        used("lab", "old", 0.0, 50);
        used("lab", "young", 0.0, 40);

        List<IdleVerdict> verdicts = decide();
        assertThat(verdicts)
                .filteredOn(v -> v.state() == IdleState.RELEASE)
                .extracting(v -> v.job().name())
                .containsExactly("old");
        assertThat(verdicts)
                .filteredOn(v -> v.job().name().equals("young"))
                .extracting(IdleVerdict::state)
                .containsExactly(IdleState.WARNED);
    }

    @Test
    void aNotebookReleasedForAWaiterOfItsOwnTeamReturnsToTheQueueBehindIt() {
        // lab's notebook (submitted two hours ago) idles on GPU 0; lab's own training job, equal priority, submitted
        // a minute ago, waits for a GPU; the notebook's release re-queues it (preempt)
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        PendingJob waiter = new PendingJob(spec("lab", "train-2", JobKind.TRAIN, 1), NOW.minusSeconds(60));
        pending.add(waiter);
        used("lab", "nb", 0.0, 45);
        requeued.add(new JobId("lab", "nb"));

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.RELEASE);
        assertThat(v.waiter()).contains(new JobId("lab", "train-2"));
        assertThat(v.requeuedAt())
                .as("its place in the queue counts from its release")
                .contains(NOW);

        PlacedJob notebook = placed.stream()
                .filter(p -> p.id().name().equals("nb"))
                .findFirst()
                .orElseThrow();
        placed.remove(notebook);
        Set<JobId> placedAfter = placedBy(
                List.of(waiter, new PendingJob(notebook.spec(), v.requeuedAt().orElseThrow())));
        assertThat(placedAfter)
                .as("the waiter gets the GPU the notebook gave up, and the notebook waits")
                .containsExactly(new JobId("lab", "train-2"));
        assertThat(placedBy(List.of(waiter, new PendingJob(notebook.spec(), NOW.minus(Duration.ofHours(2))))))
                .as("kept at its submission, the notebook would take its GPU back ahead of the waiter")
                .containsExactly(new JobId("lab", "nb"));
    }

    @Test
    void aStoppedNotebookIsNotRequeued() {
        placed.add(placed("lab", "nb", JobKind.NOTEBOOK, 0));
        waiting();
        used("lab", "nb", 0.0, 45);

        IdleVerdict v = verdict("nb").orElseThrow();
        assertThat(v.state()).isEqualTo(IdleState.RELEASE);
        assertThat(v.requeuedAt()).isEmpty();
    }

    @Test
    void aJobReleasedEarlierInThePassIsBackInTheQueueForTheNextDecision() {
        // two idle notebooks of lab (guaranteed 2, so each is placed again in quota before a borrower); the first
        // is released for lab's own waiter; the second would only make room for the first again: it is kept
        placed.removeIf(p -> p.id().name().equals("train"));
        teams.put("lab", new Team("lab", 2000, Team.UNLIMITED, 1, 0).withIdle(NOTEBOOKS));
        placed.add(placed("lab", "old", JobKind.NOTEBOOK, 0));
        placed.add(placed("lab", "young", JobKind.NOTEBOOK, 1));
        pending.add(new PendingJob(spec("lab", "train-2", JobKind.TRAIN, 1), NOW.minusSeconds(60)));
        waiting();
        used("lab", "old", 0.0, 50);
        used("lab", "young", 0.0, 40);
        requeued.add(new JobId("lab", "old"));
        requeued.add(new JobId("lab", "young"));

        List<IdleVerdict> verdicts = decide();
        assertThat(verdicts)
                .filteredOn(v -> v.state() == IdleState.RELEASE)
                .extracting(v -> v.job().name())
                .containsExactly("old");
    }

    /** What the queue pass places on the snapshot with {@code queue} waiting. */
    private Set<JobId> placedBy(List<PendingJob> queue) {
        Set<JobId> result = new HashSet<>();
        QuotaScheduler.withDefaults()
                .schedulePending(new SchedulingSnapshot(List.of(NODE), Set.of(), placed, queue, teams, NOW))
                .actionsOf(PlanAction.Place.class)
                .forEach(p -> result.add(p.job()));
        return result;
    }
}

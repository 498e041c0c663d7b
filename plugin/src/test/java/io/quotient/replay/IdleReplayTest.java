package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The service's idle pass in the replay: the core's decisions at 30-second ticks of simulated time, fed from the jobs'
 * idle profiles. One node of 2 GPUs; team lab (guaranteed 1) watches its notebooks, vision (guaranteed 1) does not.
 */
class IdleReplayTest {

    private static final long MIN = 60_000;
    private static final List<NodeSpec> NODES = ClusterSize.uniform(1, 2);
    private static final String IDLE_AFTER_10_MIN = "busy:10m|idle:4h";

    private static IdlePolicy policy(IdleAction action) {
        return new IdlePolicy(
                Set.of(JobKind.NOTEBOOK), Duration.ofMinutes(30), Duration.ofMinutes(20), 0.05, true, action);
    }

    static Map<String, Team> teams(IdleAction action) {
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("lab", Team.of("lab", 1).withIdle(policy(action)));
        teams.put("vision", Team.of("vision", 1));
        return teams;
    }

    /** A job of one GPU; training is preemptible and checkpoints every 30 minutes, the others every 2 minutes. */
    static ReplayJob job(String name, String team, long submitMin, long minutes, JobKind kind, String profile) {
        boolean train = kind == JobKind.TRAIN;
        return job(
                name,
                team,
                submitMin,
                minutes,
                kind,
                profile,
                0,
                train,
                train ? ReplayJob.DEFAULT_CHECKPOINT_MS : 2 * MIN);
    }

    static ReplayJob job(
            String name,
            String team,
            long submitMin,
            long minutes,
            JobKind kind,
            String profile,
            int priority,
            boolean preemptible,
            long checkpointMs) {
        return new ReplayJob(
                name,
                team,
                submitMin * MIN,
                minutes * MIN,
                new GpuRequest.WholeGpus(1),
                0,
                0,
                Set.of(),
                1,
                kind,
                priority,
                preemptible,
                checkpointMs,
                Duration.ZERO,
                IdleProfile.parse(profile));
    }

    private record Run(ReplayOutcome outcome, List<String> events) {
        JobRun of(String name) {
            return outcome.runs().stream()
                    .filter(r -> r.job().name().equals(name))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static Run replay(Map<String, Team> teams, ReplayPolicy policy, ReplayJob... jobs) {
        List<String> events = new ArrayList<>();
        ReplayOutcome outcome = new ReplayEngine(NODES, teams, policy).run(List.of(jobs), new ReplayListener() {
            @Override
            public void started(JobRun run, long nowMs, boolean afterMove) {
                events.add(nowMs / 1000 + "s start " + run.job().name());
            }

            @Override
            public void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lostMilliMs) {
                events.add(nowMs / 1000 + "s preempt " + run.job().name());
            }

            @Override
            public void stoppedIdle(JobRun run, PlacedJob from, long nowMs) {
                events.add(nowMs / 1000 + "s stop " + run.job().name());
            }
        });
        return new Run(outcome, events);
    }

    @Test
    void aNotebookIdlePastAfterWhileAnotherTeamWaitsIsStoppedAtThatTickAndTheWaiterPlaced() {
        Run run = replay(
                teams(IdleAction.STOP),
                Baselines.named("quotient"),
                job("nb", "lab", 0, 240, JobKind.NOTEBOOK, IDLE_AFTER_10_MIN),
                job("train-0", "vision", 0, 600, JobKind.TRAIN, ""),
                job("train-1", "vision", 20, 60, JobKind.TRAIN, ""));

        // idle from the first 30-second report period under 5 % (10 min), released at 10 + 30 min
        assertThat(run.events()).containsSubsequence("2400s stop nb", "2400s start train-1");
        JobRun nb = run.of("nb");
        assertThat(nb.ended()).isTrue();
        assertThat(nb.finished()).isFalse();
        assertThat(nb.idle().stops()).isEqualTo(1);
        assertThat(nb.idle().stoppedAtMs()).isEqualTo(40 * MIN);
        // 200 minutes of its 240 left undone; they were all idle, so all returned
        assertThat(nb.idle().stoppedMilliMs()).isEqualTo(200 * MIN * 1000);
        assertThat(nb.idle().returnedMilliMs()).isEqualTo(200 * MIN * 1000);
        assertThat(nb.idle().allocatedIdleMilliMs()).isEqualTo(30 * MIN * 1000);
        assertThat(nb.deliveredMilliMs() + nb.idle().stoppedMilliMs()).isEqualTo(240 * MIN * 1000);
        assertThat(run.of("train-1").idle().waitedForIdle()).isTrue();
        assertThat(run.of("train-1").firstStartMs()).isEqualTo(40 * MIN);

        IdleFigures figures = IdleFigures.of(run.outcome().runs());
        assertThat(figures.stops()).isEqualTo(1);
        assertThat(figures.waiters()).isEqualTo(1);
        assertThat(figures.waiterQueueDelaySeconds().p50()).isEqualTo(20 * 60.0);
        assertThat(figures.returnedGpuHours()).isEqualTo(200 / 60.0, offset(1e-9));
    }

    @Test
    void aBusyNotebookAnIdleTrainingJobAndAnIdleNotebookNobodyWaitsForAreLeftAlone() {
        Map<String, Team> teams = teams(IdleAction.STOP);
        ReplayPolicy quotient = Baselines.named("quotient");
        Run busy = replay(
                teams,
                quotient,
                job("nb", "lab", 0, 240, JobKind.NOTEBOOK, ""),
                job("train-0", "vision", 0, 600, JobKind.TRAIN, ""),
                job("train-1", "vision", 20, 60, JobKind.TRAIN, ""));
        Run training = replay(
                teams,
                quotient,
                job("batch", "lab", 0, 240, JobKind.TRAIN, IDLE_AFTER_10_MIN),
                job("train-0", "vision", 0, 600, JobKind.TRAIN, ""),
                job("train-1", "vision", 20, 60, JobKind.TRAIN, ""));
        Run nobodyWaits = replay(
                teams,
                quotient,
                job("nb", "lab", 0, 240, JobKind.NOTEBOOK, IDLE_AFTER_10_MIN),
                job("train-0", "vision", 0, 600, JobKind.TRAIN, ""));

        for (Run run : List.of(busy, training, nobodyWaits)) {
            assertThat(run.events()).noneMatch(e -> e.contains(" stop ") || e.contains(" preempt "));
            assertThat(run.outcome().runs()).allMatch(JobRun::finished);
            assertThat(IdleFigures.of(run.outcome().runs()).stops()).isZero();
        }
        assertThat(busy.of("train-1").firstStartMs()).isEqualTo(240 * MIN);
        assertThat(training.of("train-1").firstStartMs()).isEqualTo(240 * MIN);
        assertThat(nobodyWaits.of("nb").finishMs()).isEqualTo(240 * MIN);
        // idle time is measured even when nothing is released: 230 of the notebook's 240 minutes
        assertThat(nobodyWaits.of("nb").idle().allocatedIdleMilliMs()).isEqualTo(230 * MIN * 1000);
        assertThat(IdleFigures.of(busy.outcome().runs()).profiled()).isFalse();
    }

    @Test
    void theBaselinesNeverReleaseIdleJobs() {
        for (ReplayPolicy baseline : Baselines.all()) {
            if (baseline.releasesIdle()) {
                assertThat(baseline.name()).isEqualTo("quotient");
                continue;
            }
            Run run = replay(
                    teams(IdleAction.STOP),
                    baseline,
                    job("nb", "lab", 0, 240, JobKind.NOTEBOOK, IDLE_AFTER_10_MIN),
                    job("train-0", "vision", 0, 600, JobKind.TRAIN, ""),
                    job("train-1", "vision", 20, 60, JobKind.TRAIN, ""));
            assertThat(run.events()).as(baseline.name()).noneMatch(e -> e.contains(" stop "));
            assertThat(run.of("nb").finished()).as(baseline.name()).isTrue();
            // what it held idle is measured all the same: 230 minutes of 1 GPU
            assertThat(run.of("nb").idle().allocatedIdleMilliMs()).isEqualTo(230 * MIN * 1000);
        }
    }

    @Test
    void aPreemptedNotebookIsRequeuedForAHigherPriorityJobOfItsTeamAndResumesWhereItWas() {
        // its jobs do not preempt each other: the urgent job waits for the idle notebook's GPU
        Map<String, Team> teams = Map.of(
                "lab",
                Team.of("lab", 2)
                        .withPreemptWithinTeam(WithinTeamPreemption.NEVER)
                        .withIdle(policy(IdleAction.PREEMPT)));
        ReplayJob urgent = job("urgent", "lab", 20, 60, JobKind.TRAIN, "", 5, true, ReplayJob.DEFAULT_CHECKPOINT_MS);
        // a notebook its user lets be preempted (quotient.io/preemptible): re-queued, it displaces nobody
        ReplayJob nb = job("nb", "lab", 0, 240, JobKind.NOTEBOOK, IDLE_AFTER_10_MIN, 0, true, 2 * MIN);
        Run run =
                replay(teams, Baselines.named("quotient"), nb, job("batch", "lab", 0, 600, JobKind.TRAIN, ""), urgent);

        assertThat(run.events()).containsSubsequence("2400s preempt nb", "2400s start urgent", "6000s start nb");
        JobRun notebook = run.of("nb");
        assertThat(notebook.finished()).as(run.events().toString()).isTrue();
        assertThat(notebook.idle().preemptions()).as(run.events().toString()).isEqualTo(1);
        assertThat(notebook.preemptions()).isEqualTo(1);
        // it checkpoints every 2 minutes: it lost nothing at 40 minutes and resumed its 200 minutes left, idle, and
        // with nobody waiting any more it was kept to its end
        assertThat(notebook.lostMilliMs()).isZero();
        assertThat(notebook.finishMs()).isEqualTo(100 * MIN + 200 * MIN);
        assertThat(notebook.deliveredMilliMs()).isEqualTo(240 * MIN * 1000);
        assertThat(notebook.idle().allocatedIdleMilliMs()).isEqualTo(230 * MIN * 1000);
    }

    @Test
    void aJobReleasedAndRequeuedWhetherOrNotAnyoneWaitsEndsOnceItsProfileIsOver() {
        Map<String, Team> teams = Map.of(
                "lab",
                Team.of("lab", 1)
                        .withIdle(new IdlePolicy(
                                Set.of(JobKind.TRAIN),
                                Duration.ofMinutes(10),
                                Duration.ofMinutes(5),
                                0.05,
                                false,
                                IdleAction.PREEMPT)));
        // never checkpoints: each release throws its run away, and it is placed again at once
        ReplayJob idle = job("idle", "lab", 0, 60, JobKind.TRAIN, "idle:45m", 0, true, 0);
        Run run = replay(teams, Baselines.named("quotient"), idle);

        JobRun job = run.of("idle");
        // released every 10 minutes of its 45 idle ones (4 times), then busy: its 60 minutes run to the end
        assertThat(job.finished()).as(run.events().toString()).isTrue();
        assertThat(job.idle().preemptions()).isEqualTo(4);
        assertThat(job.lostMilliMs()).isEqualTo(40 * MIN * 1000);
        assertThat(job.finishMs()).isEqualTo(100 * MIN);
    }

    @Test
    void aNotebookReleasedForAnEarlierJobOfItsTeamAtEqualPriorityReturnsBehindIt() {
        Map<String, Team> teams = Map.of(
                "lab",
                Team.of("lab", 2)
                        .withPreemptWithinTeam(WithinTeamPreemption.NEVER)
                        .withIdle(policy(IdleAction.PREEMPT)));
        // the notebook (submitted first) and the waiting training job have the same team and priority: kept at its
        // submission, the re-queued notebook would be placed again on its GPU ahead of the job it was released for
        ReplayJob nb = job("nb", "lab", 0, 240, JobKind.NOTEBOOK, IDLE_AFTER_10_MIN, 0, true, 2 * MIN);
        ReplayJob waiter = job("train-2", "lab", 20, 60, JobKind.TRAIN, "");
        Run run =
                replay(teams, Baselines.named("quotient"), nb, job("batch", "lab", 0, 600, JobKind.TRAIN, ""), waiter);

        assertThat(run.events())
                .as("it waits as of its release, behind the waiter")
                .containsSubsequence("2400s preempt nb", "2400s start train-2", "6000s start nb")
                .doesNotContain("2400s start nb");
        assertThat(run.of("train-2").firstStartMs()).isEqualTo(40 * MIN);
        assertThat(run.of("train-2").idle().waitedForIdle()).isTrue();
        assertThat(run.of("nb").idle().preemptions()).isEqualTo(1);
        assertThat(run.of("nb").finished()).isTrue();
    }
}

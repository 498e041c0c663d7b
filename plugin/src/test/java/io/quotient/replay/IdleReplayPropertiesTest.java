package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The engine's invariants with idle profiles and idle policies on small generated traces: every job ends once or never
 * starts, capacity is never exceeded, delivered plus stopped work is the trace's work plus the work lost, and the same
 * input replays the same.
 */
class IdleReplayPropertiesTest {

    /**
     * SmallTraces' input with most teams watching notebooks (some training too), a third of the jobs notebooks, most
     * with a profile: busy, idle, then nearly idle, and busy after it.
     */
    static SmallTraces.Input withIdle(long seed) {
        SmallTraces.Input in = SmallTraces.generate(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        Map<String, Team> teams = new LinkedHashMap<>();
        in.teams().forEach((name, team) -> {
            Set<JobKind> kinds =
                    random.nextBoolean() ? Set.of(JobKind.NOTEBOOK) : Set.of(JobKind.NOTEBOOK, JobKind.TRAIN);
            IdleAction action = random.nextBoolean() ? IdleAction.STOP : IdleAction.PREEMPT;
            IdlePolicy policy = new IdlePolicy(
                    kinds,
                    Duration.ofMinutes(5 + random.nextInt(30)),
                    Duration.ofMinutes(random.nextInt(5)),
                    0.05 * random.nextInt(3),
                    random.nextBoolean(),
                    action);
            teams.put(name, random.nextInt(4) == 0 ? team : team.withIdle(policy));
        });
        List<ReplayJob> jobs = new ArrayList<>();
        for (ReplayJob j : in.jobs()) {
            boolean notebook = random.nextInt(3) == 0;
            String profile = random.nextInt(4) == 0
                    ? ""
                    : "busy:" + (1 + random.nextInt(40)) + "m|idle:" + (1 + random.nextInt(90)) + "m|"
                            + random.nextInt(10) + "%:" + (30 + random.nextInt(600)) + "s";
            jobs.add(new ReplayJob(
                    j.name(),
                    j.team(),
                    j.submitMs(),
                    j.durationMs(),
                    j.gpu(),
                    j.cpuMilli(),
                    j.memoryMib(),
                    j.models(),
                    j.replicas(),
                    notebook ? JobKind.NOTEBOOK : JobKind.TRAIN,
                    j.priority(),
                    j.preemptible(),
                    j.checkpointMs(),
                    j.minRuntime(),
                    IdleProfile.parse(profile)));
        }
        return new SmallTraces.Input(in.nodes(), teams, jobs);
    }

    @Property(tries = 80)
    void everyJobEndsOnceCapacityHoldsAndTheWorkAddsUp(@ForAll long seed) {
        SmallTraces.Input in = withIdle(seed);
        Capacity capacity = new Capacity();
        ReplayOutcome outcome =
                new ReplayEngine(in.nodes(), in.teams(), Baselines.named("quotient")).run(in.jobs(), capacity);

        assertThat(outcome.runs()).hasSize(in.jobs().size()).noneMatch(JobRun::running);
        for (JobRun run : outcome.runs()) {
            long work = run.job().durationMs() * run.job().gpuMilli(in.nodes());
            if (run.ended()) {
                assertThat(run.deliveredMilliMs() + run.idle().stoppedMilliMs())
                        .as(run.toString())
                        .isEqualTo(work + run.lostMilliMs());
                assertThat(capacity.ends.getOrDefault(run.job().name(), 0)).isEqualTo(1);
                assertThat(run.idle().allocatedIdleMilliMs()).isBetween(0L, run.deliveredMilliMs());
            } else {
                assertThat(run.firstStartMs()).isEqualTo(-1);
            }
            if (run.idle().stops() > 0) {
                assertThat(run.finished()).isFalse();
                assertThat(run.idle().stops()).isEqualTo(1);
                assertThat(run.idle().returnedMilliMs())
                        .isLessThanOrEqualTo(run.idle().stoppedMilliMs());
            }
            Team team = in.teams().get(run.job().team());
            boolean watched = team.idle().watches(run.spec().kind());
            if (!watched) {
                assertThat(run.idle().stops() + run.idle().preemptions())
                        .as(run.toString())
                        .isZero();
            }
            if (!run.job().profile().given()) {
                // busy all the time: never idle, never released
                assertThat(run.idle().allocatedIdleMilliMs()).isZero();
                assertThat(run.idle().stops() + run.idle().preemptions()).isZero();
            }
        }
    }

    /**
     * Samples that once double-booked GPUs: an idle notebook gang released, then taken back at once by a relocation
     * that evicted a borrowed job to make a destination and moved a protected job onto its GPUs, the plan listing the
     * move before the eviction.
     */
    @Example
    void aGangsRelocationEvictsBeforeItMovesOntoTheGpusFreed() {
        everyJobEndsOnceCapacityHoldsAndTheWorkAddsUp(-7557448L);
        everyJobEndsOnceCapacityHoldsAndTheWorkAddsUp(526020L);
    }

    @Property(tries = 30)
    void theSameInputReplaysTheSame(@ForAll long seed) {
        SmallTraces.Input in = withIdle(seed);
        ReplayPolicy quotient = Baselines.named("quotient");
        assertThat(ReplayEnginePropertiesTest.log(in, quotient))
                .isEqualTo(ReplayEnginePropertiesTest.log(in, quotient));
    }

    /** The GPU milli in use on every GPU never above one GPU; each job ends (finishes or is stopped) once. */
    private static final class Capacity implements ReplayListener {
        private final Map<String, Long> used = new HashMap<>();
        private final Map<String, Integer> ends = new HashMap<>();

        @Override
        public void started(JobRun run, long nowMs, boolean afterMove) {
            add(run.placement(), 1);
        }

        @Override
        public void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lostMilliMs) {
            add(from, -1);
        }

        @Override
        public void finished(JobRun run, PlacedJob from, long nowMs) {
            add(from, -1);
            ends.merge(run.job().name(), 1, Integer::sum);
        }

        @Override
        public void stoppedIdle(JobRun run, PlacedJob from, long nowMs) {
            add(from, -1);
            ends.merge(run.job().name(), 1, Integer::sum);
        }

        private void add(PlacedJob p, int sign) {
            for (PlacedJob.Replica replica : p.replicas()) {
                for (int gpu : replica.gpuIndices()) {
                    long total = used.merge(replica.node() + "/" + gpu, sign * (long) p.milliPerGpu(), Long::sum);
                    assertThat(total).isBetween(0L, 1000L);
                }
            }
        }
    }
}

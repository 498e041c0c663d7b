package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Arguments: the number of traces, then the policies. Prints every decision of the replays of generated traces (job, time, node, GPUs) and their metrics without the
 * wall-clock fields, for {@link ReplayAcrossJvmsTest} to compare between two JVM processes. The traces have many teams
 * of equal weight and guarantees in odd milli, so the fair shares' rounding and the teams' ties are decided on every
 * pass: the order in which a collection of the core iterates reaches the decisions there if anywhere.
 */
public final class DecisionLogMain {

    private DecisionLogMain() {}

    public static void main(String[] args) {
        int traces = Integer.parseInt(args[0]);
        List<ReplayPolicy> policies =
                Arrays.stream(args).skip(1).map(Baselines::named).toList();
        StringBuilder out = new StringBuilder();
        for (int seed = 0; seed < traces; seed++) {
            Input input = generate(seed);
            for (ReplayPolicy policy : policies) {
                out.append("trace ")
                        .append(seed)
                        .append(' ')
                        .append(policy.name())
                        .append('\n');
                MetricsRecorder recorder = new MetricsRecorder(input.teams(), input.jobs(), input.nodes());
                ReplayOutcome outcome = new ReplayEngine(input.nodes(), input.teams(), policy)
                        .run(input.jobs(), new Log(out, recorder));
                Map<String, Object> metrics = ReplayJson.object(recorder.result(outcome, input.nodes()));
                metrics.remove("decisionsPerSecond");
                metrics.remove("wallSeconds");
                out.append(metrics).append('\n');
            }
        }
        System.out.print(out);
    }

    record Input(List<NodeSpec> nodes, Map<String, Team> teams, List<ReplayJob> jobs) {}

    static Input generate(long seed) {
        Random random = new Random(seed);
        List<NodeSpec> nodes = ClusterSize.uniform(3 + random.nextInt(3), 4);
        Map<String, Team> teams = new LinkedHashMap<>();
        int teamCount = 5 + random.nextInt(4);
        for (int t = 0; t < teamCount; t++) {
            // a third of a GPU and odd milli: the shares do not divide evenly
            teams.put("team-" + t, Team.of("team-" + t, random.nextInt(3) + 0.333 + t * 0.001));
        }
        List<ReplayJob> jobs = new ArrayList<>();
        for (int j = 0; j < 60; j++) {
            String team = "team-" + random.nextInt(teamCount);
            long submit = 1_500_000_000_000L + random.nextInt(4 * 3600) * 1000L;
            long duration = (600 + random.nextInt(3 * 3600)) * 1000L;
            jobs.add(new ReplayJob(
                    "job-" + j,
                    team,
                    submit,
                    duration,
                    new GpuRequest.WholeGpus(1 + random.nextInt(3)),
                    1000,
                    1024,
                    Set.of(),
                    1,
                    JobKind.TRAIN,
                    0,
                    true,
                    15 * 60_000L,
                    Duration.ZERO,
                    IdleProfile.BUSY));
        }
        jobs.sort(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name));
        return new Input(nodes, teams, Gangs.formed(jobs, nodes));
    }

    /** Writes each start, stop and finish, and forwards every event to the metrics. */
    private record Log(StringBuilder out, ReplayListener metrics) implements ReplayListener {
        @Override
        public void interval(long fromMs, long toMs, ReplayState state) {
            metrics.interval(fromMs, toMs, state);
        }

        @Override
        public void arrived(JobRun run, long nowMs) {
            metrics.arrived(run, nowMs);
        }

        @Override
        public void started(JobRun run, long nowMs, boolean afterMove) {
            out.append(nowMs).append(" start ").append(run.job().name()).append(' ');
            out.append(run.placement().node())
                    .append(run.placement().gpuIndices())
                    .append('\n');
            metrics.started(run, nowMs, afterMove);
        }

        @Override
        public void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lostMilliMs) {
            out.append(nowMs)
                    .append(moved ? " move " : " evict ")
                    .append(run.job().name())
                    .append('\n');
            metrics.stopped(run, from, nowMs, moved, lostMilliMs);
        }

        @Override
        public void finished(JobRun run, PlacedJob from, long nowMs) {
            out.append(nowMs).append(" finish ").append(run.job().name()).append('\n');
            metrics.finished(run, from, nowMs);
        }

        @Override
        public void ended(long endMs, ReplayState state) {
            metrics.ended(endMs, state);
        }
    }
}

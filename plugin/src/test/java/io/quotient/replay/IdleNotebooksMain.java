package io.quotient.replay;

import io.quotient.adapters.quota.TeamsFileParser;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The measurement of docs/research/replay.md, "Idle notebooks": a trace slice with the synthetic notebooks, replayed
 * by {@code quotient} with teams without an idle policy and with one, on the same cluster. Prints one table row per
 * run, and the queueing delay of the jobs the idle releases freed GPUs for in both runs (the same jobs), which the
 * JSON cannot give for the run without releases.
 *
 * <p>Arguments: JOBS TEAMS_WITHOUT TEAMS_WITH FROM DAYS LOAD RATE SEED (FROM as 2017-10-04).
 */
public final class IdleNotebooksMain {

    private IdleNotebooksMain() {}

    public static void main(String[] args) throws IOException {
        List<ReplayJob> trace = JobsFile.read(Path.of(args[0]));
        long from = LocalDate.parse(args[3])
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant()
                .toEpochMilli();
        long to = from + Math.round(Double.parseDouble(args[4]) * 86_400_000L);
        List<ReplayJob> sliced = new TraceSlice(from, to).of(trace);
        List<NodeSpec> nodes = ClusterSize.forLoad(sliced, Double.parseDouble(args[5]), 8);
        Map<String, Team> without = TeamsFileParser.parse(Files.readString(Path.of(args[1])), args[1]);
        Map<String, Team> with = TeamsFileParser.parse(Files.readString(Path.of(args[2])), args[2]);
        List<ReplayJob> notebooks = NotebookWorkload.generate(
                without,
                sliced.get(0).submitMs(),
                sliced.get(sliced.size() - 1).submitMs() + 1,
                Double.parseDouble(args[6]),
                Long.parseLong(args[7]));
        List<ReplayJob> jobs = Gangs.formed(NotebookWorkload.merged(sliced, notebooks), nodes);
        System.out.printf(
                Locale.ROOT,
                "%d trace jobs, %d notebooks, %d GPUs%n",
                sliced.size(),
                notebooks.size(),
                nodes.stream().mapToInt(NodeSpec::gpuCount).sum());
        ReplayPolicy quotient = Baselines.named("quotient");
        long started = System.nanoTime();
        ReplayOutcome off = new ReplayEngine(nodes, without, quotient).run(jobs, new ReplayListener() {});
        double offSeconds = (System.nanoTime() - started) / 1e9;
        started = System.nanoTime();
        ReplayOutcome on = new ReplayEngine(nodes, with, quotient).run(jobs, new ReplayListener() {});
        double onSeconds = (System.nanoTime() - started) / 1e9;
        Set<String> waiters = on.runs().stream()
                .filter(r -> r.idle().waitedForIdle())
                .map(r -> r.job().name())
                .collect(Collectors.toSet());
        System.out.println("| idle policy | qdelay p50 | p95 | notebooks p50 | p95 | waiters (" + waiters.size()
                + ") p50 | p95 | idle GPUh | returned GPUh | stopped GPUh | idle stops | idle preemptions | delivered GPUh"
                + " | wall s |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        row("none", off, waiters, offSeconds);
        row("notebooks, 30 min, " + actions(with), on, waiters, onSeconds);
    }

    private static void row(String name, ReplayOutcome outcome, Set<String> waiters, double seconds) {
        List<JobRun> runs = outcome.runs();
        Quantiles all = delays(runs);
        Quantiles nb = delays(
                runs.stream().filter(r -> r.spec().kind() == JobKind.NOTEBOOK).toList());
        Quantiles w = delays(
                runs.stream().filter(r -> waiters.contains(r.job().name())).toList());
        IdleFigures f = IdleFigures.of(runs);
        double delivered = runs.stream().mapToDouble(JobRun::deliveredMilliMs).sum() / 3.6e9;
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %d | %d | %.1f | %.0f |%n",
                name,
                ReplayText.duration(all.p50()),
                ReplayText.duration(all.p95()),
                ReplayText.duration(nb.p50()),
                ReplayText.duration(nb.p95()),
                ReplayText.duration(w.p50()),
                ReplayText.duration(w.p95()),
                f.idleGpuHours(),
                f.returnedGpuHours(),
                f.stoppedGpuHours(),
                f.stops(),
                f.preemptions(),
                delivered,
                seconds);
    }

    /** The idle actions of the teams' policies ("stop", "preempt"), as the row names them. */
    private static String actions(Map<String, Team> teams) {
        return teams.values().stream()
                .filter(t -> !t.idle().kinds().isEmpty())
                .map(t -> t.idle().action().name().toLowerCase(Locale.ROOT))
                .distinct()
                .sorted()
                .collect(Collectors.joining("/"));
    }

    private static Quantiles delays(List<JobRun> runs) {
        List<Long> ms = new ArrayList<>();
        for (JobRun r : runs) {
            if (r.firstStartMs() >= 0) {
                ms.add(r.firstStartMs() - r.job().submitMs());
            }
        }
        return Quantiles.ofMillis(ms);
    }
}

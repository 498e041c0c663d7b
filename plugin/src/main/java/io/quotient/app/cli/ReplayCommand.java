package io.quotient.app.cli;

import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.quota.TeamsFileParser;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Team;
import io.quotient.replay.Baselines;
import io.quotient.replay.ClusterSize;
import io.quotient.replay.Gangs;
import io.quotient.replay.JobsFile;
import io.quotient.replay.NotebookWorkload;
import io.quotient.replay.Replay;
import io.quotient.replay.ReplayCharts;
import io.quotient.replay.ReplayJob;
import io.quotient.replay.ReplayJson;
import io.quotient.replay.ReplayPolicy;
import io.quotient.replay.ReplayResult;
import io.quotient.replay.ReplayText;
import io.quotient.replay.ReplayWarnings;
import io.quotient.replay.TraceSlice;
import io.quotient.sim.TraceFormatException;
import io.quotient.sim.TraceReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code replay}: a shared cluster over time, every decision by the scheduling core (docs/replay.md). */
public final class ReplayCommand implements CliCommand {

    static final String HELP = """
            Usage: java -jar quotient.jar replay --jobs FILE [--teams FILE]
                                                 (--nodes FILE | --nodes N [--gpus-per-node G] | --load X [--gpus-per-node G])
                                                 [--policy NAME|all] [--from T] [--to T | --days D] [--json] [--charts DIR]
                                                 [--usage-half-life D [--usage-window D]]
                                                 [--add-notebooks RATE [--seed N]]
                                                 [--node-models M:F,...] [--pin-models FRACTION [--pin-seed S]]

            Replays a trace of jobs over time: each job arrives, waits, is placed, may be preempted (losing the
            work since its last checkpoint) and re-queued, and finishes after its running time. Submissions,
            the re-queue and reclaim passes (every 5 s and 15 s) and the nightly defragmentation (03:00) are
            decided by the service's scheduling core, in simulated time. See docs/replay.md.

            Options:
              --jobs FILE          the Philly trace CSV as shipped (recognised by its header
                                   timestamp,duration,num_gpus,gpu_time,cluster), or the replay's job format
                                   (header with at least submit,duration,team; docs/replay.md)
              --teams FILE         the service's teams file (guarantees, maxGpus, weights, priorities,
                                   departments); default: every team of the trace guaranteed 0 GPUs
              --nodes FILE         an openb node list (sn,cpu_milli,memory_mib,gpu,model)
              --nodes N            N identical nodes of --gpus-per-node GPUs (default 8)
              --load X             as many nodes of --gpus-per-node GPUs as make the trace's mean offered
                                   GPUs X times the capacity (1.0: capacity = mean demand)
              --policy NAME|all    one of {policies}, or all (default quotient)
              --from T, --to T     only jobs submitted in [from, to): 2017-10-01, 2017-10-01T08:00 (UTC)
                                   or with a zone (2017-10-01T08:00Z, 2017-10-01T10:00+02:00)
              --days D             only the first D days of the trace (from --from, if given)
              --json               print JSON (one object, or a list with --policy all) instead of the table
              --charts DIR         also write PNG charts there: each team's GPUs over time against its
                                   guarantee (one chart per policy) and the queueing-delay distribution
                                   of every policy
              --usage-half-life D  quotient's fair shares remember past borrowing with this half-life
                                   (the service's quotient.scheduling.fair-share.usage-half-life; 12h, 30m,
                                   PT12H; default 0: no memory); the baselines ignore it
              --usage-window D     how far back borrowing counts (default 7d)
              --add-notebooks RATE add synthetic interactive notebooks with idle profiles: per team
                                   guaranteed GPUs, RATE a working day on average, opened in working
                                   hours (docs/replay.md); the cluster is sized from the trace alone
              --seed N             the notebooks' seed (default 1): the same seed, the same notebooks
              --node-models M:F,.. the generated nodes' GPU models and the share of the nodes of each, e.g.
                                   H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25 (shares sum to 1;
                                   whole nodes by largest remainders, the first model's nodes first)
              --pin-models F       pin that share of the jobs (0..1) to one GPU model each, drawn in
                                   proportion to the fleet's GPUs per model, per job from its name and
                                   --pin-seed S (default 42); a pinned gang runs all replicas on that model
              --help               this text

            Exit status: 0 done, 1 unreadable or malformed input (the message names file, line and column),
            2 bad options.
            """.replace("{policies}", String.join(", ", Baselines.names()));

    private final PrintStream out;
    private final PrintStream err;

    public ReplayCommand() {
        this(System.out, System.err);
    }

    /** A command writing to the given streams (tests capture them). */
    public ReplayCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public String summary() {
        return "replay a multi-tenant job trace over time through the scheduler and its baselines";
    }

    @Override
    public int run(String[] args) {
        ReplayOptions options;
        try {
            options = ReplayOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("replay: " + e.getMessage() + "\nRun 'java -jar quotient.jar replay --help' for the options.");
            return 2;
        }
        if (options.help()) {
            out.println(HELP);
            return 0;
        }
        try {
            List<ReplayJob> trace = JobsFile.read(options.jobs());
            List<ReplayJob> sliced = slice(trace, options).of(trace);
            if (sliced.isEmpty()) {
                throw new IllegalArgumentException("no job of " + options.jobs() + " was submitted in the slice given");
            }
            JobsFile.requireReplayableSpan(options.jobs(), sliced);
            List<NodeSpec> nodes = nodes(options, sliced);
            Map<String, Team> teams = teams(options.teams(), sliced);
            // pins are drawn for the trace's jobs; synthetic notebooks, added after, pin nothing
            List<ReplayJob> pinned =
                    options.pins() == null ? sliced : options.pins().pin(sliced, nodes);
            List<ReplayJob> jobs = Gangs.formed(withNotebooks(pinned, teams, options), nodes);
            if (options.charts() != null) {
                ReplayCharts.requireWritable(options.charts()); // before the run, not after it
            }
            ReplayWarnings.of(jobs, nodes, teams).forEach(w -> err.println("replay: warning: " + w));
            List<ReplayResult> results = new ArrayList<>();
            for (ReplayPolicy policy : options.policies()) {
                ReplayResult result = Replay.run(policy, nodes, teams, jobs);
                results.add(result);
                if (!options.json()) {
                    err.printf(
                            Locale.ROOT,
                            "%s: %d jobs on %d nodes (%d GPUs) in %.1f s, %.0f decisions/s%n",
                            policy.name(),
                            jobs.size(),
                            nodes.size(),
                            result.gpus(),
                            result.wallSeconds(),
                            result.decisionsPerSecond());
                }
            }
            out.print(options.json() ? ReplayJson.of(results) + "\n" : table(results));
            if (options.charts() != null) {
                ReplayCharts.write(options.charts(), results).forEach(f -> err.println("chart: " + f));
            }
            return 0;
        } catch (TraceFormatException | ConfigFileException | IllegalArgumentException | UncheckedIOException e) {
            err.println("replay: " + e.getMessage());
            return 1;
        }
    }

    /** The trace with the synthetic notebooks opened over its span (first to last submission), if asked. */
    private static List<ReplayJob> withNotebooks(List<ReplayJob> trace, Map<String, Team> teams, ReplayOptions o) {
        if (o.notebooks() <= 0) {
            return trace;
        }
        long from = trace.get(0).submitMs();
        long to = trace.get(trace.size() - 1).submitMs() + 1;
        return NotebookWorkload.merged(trace, NotebookWorkload.generate(teams, from, to, o.notebooks(), o.seed()));
    }

    private static TraceSlice slice(List<ReplayJob> trace, ReplayOptions o) {
        if (o.days() > 0) {
            long from = o.fromMs() != Long.MIN_VALUE
                    ? o.fromMs()
                    : trace.stream().mapToLong(ReplayJob::submitMs).min().orElse(0);
            return new TraceSlice(from, from + Math.round(o.days() * 86_400_000L));
        }
        return o.fromMs() == Long.MIN_VALUE && o.toMs() == Long.MAX_VALUE
                ? TraceSlice.ALL
                : new TraceSlice(o.fromMs(), o.toMs());
    }

    private static List<NodeSpec> nodes(ReplayOptions o, List<ReplayJob> jobs) {
        if (o.nodesFile() != null) {
            return TraceReader.readNodes(o.nodesFile());
        }
        if (o.nodeCount() > 0) {
            return ClusterSize.uniform(o.nodeCount(), o.gpusPerNode(), o.nodeModels());
        }
        return ClusterSize.forLoad(jobs, o.load(), o.gpusPerNode(), o.nodeModels());
    }

    /** The teams file parsed as the service parses it, or every team of the trace with no guarantee. */
    static Map<String, Team> teams(Path file, List<ReplayJob> jobs) {
        if (file == null) {
            Map<String, Team> teams = new LinkedHashMap<>();
            jobs.forEach(j -> teams.computeIfAbsent(j.team(), n -> Team.of(n, 0)));
            return teams;
        }
        try {
            Map<String, Team> teams = TeamsFileParser.parse(Files.readString(file), file.toString());
            List<String> missing = jobs.stream()
                    .map(ReplayJob::team)
                    .distinct()
                    .filter(t -> !teams.containsKey(t))
                    .sorted()
                    .toList();
            if (!missing.isEmpty()) {
                // checked before replaying: the first job of such a team may come hours of replay later
                throw new IllegalArgumentException(
                        "the trace has jobs of team " + String.join(", team ", missing)
                                + ", which the teams file does not define; add them (guaranteedGpus: 0 to let them only borrow)");
            }
            return teams;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("teams file " + file + ": no such file; check the path");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read teams file " + file + ": " + e, e);
        }
    }

    private static String table(List<ReplayResult> results) {
        TextTable table = new TextTable(ReplayText.headers(results));
        ReplayText.rowsWithIdle(results).forEach(row -> table.row((Object[]) row));
        return table.render();
    }
}

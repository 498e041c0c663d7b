package io.quotient.app.cli;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.TieBreak;
import io.quotient.deploy.LogValues;
import io.quotient.sim.Placement;
import io.quotient.sim.PodLists;
import io.quotient.sim.ReportFormats;
import io.quotient.sim.Seeds;
import io.quotient.sim.SimulationReport;
import io.quotient.sim.Simulator;
import io.quotient.sim.TraceFormatException;
import io.quotient.sim.TracePod;
import io.quotient.sim.TraceReader;
import io.quotient.sim.UnplaceablePods;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code simulate}: replays an openb trace against a placement policy (protocol of docs/research/packing.md). */
public final class SimulateCommand implements CliCommand {

    static final String HELP = """
            Usage: java -jar quotient.jar simulate --pods FILE|VARIANT [--nodes FILE] [--policy NAME]
                                                   [--seeds 42..51] [--inflation 1.3] [--ties fixed|random]
                                                   [--service [--learn]] [--json]

            Replays a GPU-sharing trace in the format of Alibaba's cluster-trace-gpu-v2023 ("openb"):
            pods are sorted by name, shuffled with each seed, inflated to --inflation x the cluster's
            GPU capacity, and placed one at a time. Reports the GPUs left unallocated and the
            fragmentation when the arrived GPU demand reaches 100 % of capacity, averaged over seeds.

            Options:
              --pods FILE|VARIANT  pod list CSV in the openb format (with a header, columns by name;
                                   memory_mib and gpu_spec may be left out); a variant name such as
                                   'default' or 'gpushare40' means openb_pod_list_VARIANT.csv in the
                                   openb data folder
              --nodes FILE         node list CSV (sn,cpu_milli,memory_mib,gpu,model); default: the
                                   openb GPU node list, found via -Dquotient.data.dir, $QUOTIENT_DATA_DIR,
                                   or the repository's data/openb (from its root or from plugin/)
              --policy NAME        one of {policies} (default quotient)
              --seeds SPEC         42..51 (default), a list 42,43 or one seed
              --inflation RATIO    target GPU demand / capacity, 1 to 100 (default 1.3)
              --ties fixed|random  among equally scored nodes: the first in a node order drawn once from
                                   the seed (default; the FGD simulator's, which its published figures
                                   use) or one drawn at random at every decision
              --service            run the policy as the service does: the expected shapes' CPU fitted
                                   to the nodes (scaled down on a cluster with less CPU per GPU than
                                   they ask for, each capped at the median node with its GPU count)
              --learn              with --service: the expected shapes learned from the pods arrived so
                                   far, as the service learns them from the jobs it sees (the typical
                                   workload for the first 50), instead of the trace's own: the figure
                                   users of the service get
              --json               print one JSON object on stdout instead of tables
              --help               this text

            Output: per seed, the unallocated GPU %, the fragmentation amount % (idle GPU capacity the
            trace's common pod shapes cannot use, as a share of all GPUs) and ratio % (as a share of the
            idle GPUs) at arrived = 100 %, the pods scheduled and failed, placements per second, and the
            arrived % at which the first GPU pod found no node (until then everything was placed); then
            their mean and the mean curve over arrived 0..130 %. Without --json, one progress line per
            finished seed goes to stderr.

            Exit status: 0 done, 1 unreadable or malformed input (the message names file, line and
            column), 2 bad options.
            """.replace("{policies}", String.join(", ", PlacementPolicies.names()));

    private final PrintStream out;
    private final PrintStream err;

    public SimulateCommand() {
        this(System.out, System.err);
    }

    /** A command writing to the given streams (tests capture them). */
    public SimulateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public int run(String[] args) {
        SimulateOptions options;
        try {
            options = SimulateOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(
                    "simulate: " + e.getMessage() + "\nRun 'java -jar quotient.jar simulate --help' for the options.");
            return 2;
        }
        if (options.help()) {
            out.println(HELP);
            return 0;
        }
        try {
            Path nodesFile = options.nodes() != null
                    ? options.nodes()
                    : DataFolder.locate().resolve(DataFolder.GPU_NODES);
            Path podsFile = DataFolder.podsFile(options.pods());
            List<NodeSpec> nodes = TraceReader.readNodes(nodesFile);
            List<TracePod> pods = TraceReader.readPods(podsFile);
            if (pods.stream().noneMatch(p -> p.gpuMilli() > 0)) {
                // the arrivals are counted in GPU demand: without any, nothing arrives and every figure is empty
                throw new IllegalArgumentException(podsFile + " has no pod that asks for a GPU; the simulator counts"
                        + " arrivals in GPU demand, so give a pod list with GPU pods");
            }
            warnOfUnplaceablePods(nodesFile, nodes, pods);
            Simulator simulator = new Simulator(nodes, pods, options.inflation());
            Simulator.Progress progress = options.json() ? Simulator.Progress.NONE : new SeedProgress(err);
            Placement placement = options.service() != null
                    ? Placement.service(options.policy(), options.service(), options.ties())
                    : Placement.policy(options.policy(), options.ties());
            SimulationReport report = simulator.simulate(placement, options.seeds(), progress);
            out.print(options.json() ? ReportFormats.json(report) + "\n" : ReportFormats.text(report));
            return 0;
        } catch (TraceFormatException | IllegalArgumentException | UncheckedIOException e) {
            err.println("simulate: " + e.getMessage());
            return 1;
        }
    }

    private void warnOfUnplaceablePods(Path nodesFile, List<NodeSpec> nodes, List<TracePod> pods) {
        List<TracePod> unplaceable = UnplaceablePods.of(nodes, pods);
        if (!unplaceable.isEmpty()) {
            err.println("simulate: warning: " + unplaceable.size() + " of the " + pods.size() + " pods (the first "
                    + "'" + LogValues.escape(unplaceable.get(0).name()) + "'" + ") fit no node of " + nodesFile
                    + " even when it is empty (more GPUs, CPU or memory than any node of an allowed model has); they"
                    + " fail under every policy and count alike in every figure");
        }
    }

    @Override
    public String summary() {
        return "replay a GPU-sharing trace against a placement policy and report packing";
    }

    /** Prints one line per finished seed to stderr, so long runs show that they move. */
    private static final class SeedProgress implements Simulator.Progress {
        private final PrintStream err;
        private long started = System.nanoTime();

        SeedProgress(PrintStream err) {
            this.err = err;
        }

        @Override
        public void update(long seed, int done, int total) {
            if (done == 1) {
                started = System.nanoTime();
            }
            if (done == total) {
                err.printf(
                        Locale.ROOT,
                        "seed %d: %d pods placed or failed in %.1f s%n",
                        seed,
                        total,
                        (System.nanoTime() - started) / 1e9);
            }
        }
    }

    /**
     * Where the openb trace shipped in the repository ({@code data/openb}) lives, so that the defaults work
     * from the repository root and from {@code plugin/} (where the tests run).
     */
    static final class DataFolder {
        static final String GPU_NODES = "openb_node_list_gpu_node.csv";

        private DataFolder() {}

        static Path locate() {
            String configured = System.getProperty("quotient.data.dir", System.getenv("QUOTIENT_DATA_DIR"));
            List<Path> candidates = configured != null
                    ? List.of(Path.of(configured))
                    : List.of(Path.of("data/openb"), Path.of("../data/openb"));
            return candidates.stream()
                    .filter(p -> Files.isRegularFile(p.resolve(GPU_NODES)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("cannot find the openb data folder (tried "
                            + candidates + "); pass --nodes FILE, or set -Dquotient.data.dir / QUOTIENT_DATA_DIR"));
        }

        /** A path as given, or for a bare variant name the shipped openb_pod_list_NAME.csv. */
        static Path podsFile(String pods) {
            return PodLists.resolve(pods, DataFolder::locate);
        }
    }

    /**
     * The parsed arguments of {@code simulate}; {@link #parse} rejects anything it does not understand.
     * {@code service} is the workload the service's policy scores against, or null for the policy alone.
     */
    record SimulateOptions(
            Path nodes,
            String pods,
            String policy,
            List<Long> seeds,
            double inflation,
            TieBreak ties,
            Placement.ServiceWorkload service,
            boolean json,
            boolean help) {

        static final String DEFAULT_POLICY = "quotient";
        static final String DEFAULT_SEEDS = "42..51";
        private static final Set<String> VALUED =
                Set.of("--nodes", "--pods", "--policy", "--seeds", "--inflation", "--ties");

        static SimulateOptions parse(String[] args) {
            Path nodes = null;
            String pods = null;
            String policy = DEFAULT_POLICY;
            List<Long> seeds = seeds(DEFAULT_SEEDS);
            double inflation = Simulator.DEFAULT_INFLATION;
            boolean json = false;
            boolean service = false;
            boolean learn = false;
            TieBreak ties = TieBreak.FIXED_ORDER;
            if (CliOptions.asksForHelp(args)) {
                return new SimulateOptions(null, null, policy, seeds, inflation, ties, null, false, true);
            }
            for (CliOptions.Option option : CliOptions.parse(args, VALUED, Set.of("--json", "--service", "--learn"))) {
                String value = option.value();
                switch (option.name()) {
                    case "--json" -> json = true;
                    case "--service" -> service = true;
                    case "--learn" -> learn = true;
                    case "--nodes" -> nodes = Path.of(value);
                    case "--pods" -> pods = value;
                    case "--policy" -> policy = policy(value);
                    case "--seeds" -> seeds = seeds(value);
                    case "--inflation" -> inflation = inflation(value);
                    case "--ties" -> ties = ties(value);
                    default -> throw new IllegalArgumentException("unknown option '" + option.name() + "'");
                }
            }
            if (pods == null) {
                throw new IllegalArgumentException(
                        "--pods is required (a pod list CSV or an openb variant such as 'default')");
            }
            if (learn && !service) {
                throw new IllegalArgumentException("--learn needs --service: only the service learns its workload");
            }
            Placement.ServiceWorkload workload =
                    !service ? null : learn ? Placement.ServiceWorkload.LEARNED : Placement.ServiceWorkload.TRACE;
            return new SimulateOptions(nodes, pods, policy, seeds, inflation, ties, workload, json, false);
        }

        private static TieBreak ties(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "fixed" -> TieBreak.FIXED_ORDER;
                case "random" -> TieBreak.RANDOM;
                default ->
                    throw new IllegalArgumentException("--ties must be 'fixed' or 'random', was '" + value + "'");
            };
        }

        private static String policy(String value) {
            PlacementPolicies.create(value, 0, TargetWorkload.typical());
            return value.trim().toLowerCase(Locale.ROOT);
        }

        static List<Long> seeds(String spec) {
            return Seeds.parse(spec, "--seeds");
        }

        private static double inflation(String value) {
            try {
                double ratio = Double.parseDouble(value);
                if (!(ratio >= 1) || ratio > 100) {
                    // below 1 the arrivals never reach the capacity, where every figure is read
                    throw new IllegalArgumentException("--inflation must be a ratio from 1 to 100 (e.g. 1.3): the"
                            + " figures are read when the arrived GPU demand reaches 100 % of the capacity; was "
                            + value);
                }
                return ratio;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--inflation must be a number such as 1.3, was '" + value + "'");
            }
        }
    }
}

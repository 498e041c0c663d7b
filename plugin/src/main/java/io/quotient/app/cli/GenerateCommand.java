package io.quotient.app.cli;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.sim.TraceFamily;
import io.quotient.sim.TraceFormatException;
import io.quotient.sim.TraceGenerator;
import io.quotient.sim.TracePod;
import io.quotient.sim.TraceReader;
import io.quotient.sim.TraceWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code generate}: derives a member of a trace family from an openb pod list ({@link TraceGenerator}). */
public final class GenerateCommand implements CliCommand {

    static final String HELP = """
            Usage: java -jar quotient.jar generate --pods FILE|VARIANT [--nodes FILE] [--seed 42] [--out FILE]
                   [--gpu-spec PCT] [--spec-models cluster|trace] [--gpushare PCT] [--multi-gpu PCT] [--cpu-only PCT]

            Writes a pod list in the openb format derived from --pods the way the FGD paper's variants were
            made from 'default'; the same options and seed always give the same file. A share left out stays
            as in the base trace.

            Options:
              --pods FILE|VARIANT   base pod list (a variant name such as 'default' finds the shipped file)
              --nodes FILE          node list; constrained pods only get models with a node that holds them
                                    (default: the openb GPU node list)
              --seed N              seed of the draws (default 42)
              --gpu-spec PCT        share of GPU pods constrained to GPU models (gpuspecNN)
              --spec-models MIX     'cluster' (default): one model, or for 15 % of them 2 to 4, drawn by the
                                    cluster's GPUs per model; 'trace': a constraint of the base trace drawn
                                    uniformly (from gpuspec05: mostly T4, P100 and V100)
              --gpushare PCT        share of the GPU demand from pods on a fraction of one GPU (gpushareNN)
              --multi-gpu PCT       share of the GPU demand from pods on several GPUs
              --cpu-only PCT        share of all pods that ask for no GPU (cpuNNN is NN.N %), below 100
              --out FILE            write there instead of stdout
              --help                this text

            A summary of the generated trace goes to stderr. Exit status: 0 done, 1 unreadable input or a
            share the base trace cannot give (say, a fractional share from a trace without fractions), 2 bad
            options.
            """;

    private static final Set<String> VALUED = Set.of(
            "--pods",
            "--nodes",
            "--seed",
            "--gpu-spec",
            "--spec-models",
            "--gpushare",
            "--multi-gpu",
            "--cpu-only",
            "--out");

    private final PrintStream out;
    private final PrintStream err;

    public GenerateCommand() {
        this(System.out, System.err);
    }

    public GenerateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The parsed options; {@link #parse} rejects anything it does not understand. */
    record Options(String pods, Path nodes, long seed, TraceFamily family, Path outFile, boolean help) {

        static Options parse(String[] args) {
            String pods = null;
            Path nodes = null;
            Path outFile = null;
            long seed = 42;
            Double spec = null;
            Double share = null;
            Double multi = null;
            Double cpu = null;
            TraceFamily.ModelMix mix = TraceFamily.ModelMix.CLUSTER;
            if (CliOptions.asksForHelp(args)) {
                return new Options(null, null, seed, TraceFamily.BASE, null, true);
            }
            for (CliOptions.Option option : CliOptions.parse(args, VALUED, Set.of())) {
                String name = option.name();
                String value = option.value();
                switch (name) {
                    case "--pods" -> pods = value;
                    case "--nodes" -> nodes = Path.of(value);
                    case "--out" -> outFile = Path.of(value);
                    case "--seed" -> seed = seed(value);
                    case "--gpu-spec" -> spec = percent(name, value);
                    case "--gpushare" -> share = percent(name, value);
                    case "--multi-gpu" -> multi = percent(name, value);
                    case "--cpu-only" -> cpu = percent(name, value);
                    case "--spec-models" -> mix = mix(value);
                    default -> throw new IllegalArgumentException("unknown option '" + name + "'");
                }
            }
            if (pods == null) {
                throw new IllegalArgumentException(
                        "--pods is required (a pod list CSV or an openb variant such as 'default')");
            }
            return new Options(pods, nodes, seed, new TraceFamily(spec, share, multi, cpu, mix), outFile, false);
        }

        private static double percent(String option, String value) {
            try {
                double pct = Double.parseDouble(value.trim());
                if (!(pct >= 0 && pct <= 100)) {
                    throw new IllegalArgumentException(option + " must be a percentage from 0 to 100, was " + value);
                }
                return pct / 100;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must be a percentage such as 20, was '" + value + "'");
            }
        }

        private static long seed(String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seed must be a whole number, was '" + value + "'");
            }
        }

        private static TraceFamily.ModelMix mix(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "cluster" -> TraceFamily.ModelMix.CLUSTER;
                case "trace" -> TraceFamily.ModelMix.TRACE;
                default ->
                    throw new IllegalArgumentException(
                            "--spec-models must be 'cluster' or 'trace', was '" + value + "'");
            };
        }
    }

    @Override
    public int run(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(
                    "generate: " + e.getMessage() + "\nRun 'java -jar quotient.jar generate --help' for the options.");
            return 2;
        }
        if (options.help()) {
            out.println(HELP);
            return 0;
        }
        try {
            Path nodesFile = options.nodes() != null
                    ? options.nodes()
                    : SimulateCommand.DataFolder.locate().resolve(SimulateCommand.DataFolder.GPU_NODES);
            List<NodeSpec> nodes = TraceReader.readNodes(nodesFile);
            List<TracePod> base = TraceReader.readPods(SimulateCommand.DataFolder.podsFile(options.pods()));
            List<TracePod> pods = new TraceGenerator(base, nodes).generate(options.family(), options.seed());
            write(pods, options.outFile());
            err.println("generate: " + summary(options.family(), pods));
            return 0;
        } catch (TraceFormatException | IllegalArgumentException | UncheckedIOException e) {
            err.println("generate: " + e.getMessage());
            return 1;
        }
    }

    private void write(List<TracePod> pods, Path file) {
        if (file == null) {
            TraceWriter.write(pods, new OutputStreamWriter(out, StandardCharsets.UTF_8));
            return;
        }
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            TraceWriter.write(pods, writer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** What came out, in the terms of the options, so a reader sees the shares actually reached. */
    static String summary(TraceFamily family, List<TracePod> pods) {
        long gpuPods = pods.stream().filter(p -> p.demand().needsGpu()).count();
        double demand = pods.stream().mapToLong(TracePod::gpuMilli).sum();
        double fractional = pods.stream()
                .filter(p -> p.demand().gpuCount() == 1 && p.demand().gpuMilli() < 1000)
                .mapToLong(TracePod::gpuMilli)
                .sum();
        double multi = pods.stream()
                .filter(p -> p.demand().gpuCount() > 1)
                .mapToLong(TracePod::gpuMilli)
                .sum();
        long constrained =
                pods.stream().filter(p -> !p.demand().allowedModels().isEmpty()).count();
        return String.format(
                Locale.ROOT,
                "%s: %d pods, %.1f %% CPU-only, %.1f %% of GPU pods with a gpu_spec, GPU demand "
                        + "%.1f %% fractional and %.1f %% multi-GPU",
                family.name(),
                pods.size(),
                100.0 * (pods.size() - gpuPods) / pods.size(),
                gpuPods == 0 ? 0 : 100.0 * constrained / gpuPods,
                demand == 0 ? 0 : 100 * fractional / demand,
                demand == 0 ? 0 : 100 * multi / demand);
    }

    @Override
    public String summary() {
        return "derive a trace family member (gpu_spec, gpushare, multi-GPU, CPU-only shares) from an openb pod list";
    }
}

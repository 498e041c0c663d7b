package io.quotient.app.cli;

import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.replay.Baselines;
import io.quotient.replay.ModelPins;
import io.quotient.replay.NodeModels;
import io.quotient.replay.NotebookWorkload;
import io.quotient.replay.ReplayPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed arguments of {@code replay}; {@link #parse} rejects anything it does not understand, naming the option.
 *
 * @param nodesFile   an openb node list, or null
 * @param nodeCount   N identical nodes when no file is given (0: sized by {@code load})
 * @param load        mean offered GPUs / capacity when the cluster is sized from the trace (0: not sized)
 * @param fromMs      first submission taken (epoch ms), or {@link Long#MIN_VALUE}
 * @param toMs        submissions before this taken, or {@link Long#MAX_VALUE}
 * @param days        the first so many days of the trace (0: not limited)
 * @param notebooks   synthetic notebooks added per team and working day (0: none)
 * @param seed        the seed of the synthetic notebooks
 * @param nodeModels  the GPU models of generated nodes and their shares ({@link NodeModels#SINGLE} unless given)
 * @param pins        the share of jobs pinned to one model each, or null for none
 */
record ReplayOptions(
        Path jobs,
        Path teams,
        Path nodesFile,
        int nodeCount,
        int gpusPerNode,
        double load,
        List<ReplayPolicy> policies,
        boolean json,
        Path charts,
        long fromMs,
        long toMs,
        double days,
        double notebooks,
        long seed,
        NodeModels nodeModels,
        ModelPins pins,
        boolean help) {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})([smhd])");

    private static final Set<String> VALUED = Set.of(
            "--usage-half-life",
            "--usage-window",
            "--jobs",
            "--teams",
            "--nodes",
            "--gpus-per-node",
            "--load",
            "--policy",
            "--charts",
            "--from",
            "--to",
            "--days",
            "--add-notebooks",
            "--seed",
            "--node-models",
            "--pin-models",
            "--pin-seed");

    static ReplayOptions parse(String[] args) {
        if (CliOptions.asksForHelp(args)) {
            return new ReplayOptions(
                    null,
                    null,
                    null,
                    0,
                    8,
                    0,
                    List.of(),
                    false,
                    null,
                    Long.MIN_VALUE,
                    Long.MAX_VALUE,
                    0,
                    0,
                    1,
                    NodeModels.SINGLE,
                    null,
                    true);
        }
        Path jobs = null;
        Path teams = null;
        Path nodesFile = null;
        int nodeCount = 0;
        int gpusPerNode = 8;
        double load = 0;
        List<ReplayPolicy> policies = List.of(Baselines.named("quotient"));
        boolean json = false;
        Path charts = null;
        long from = Long.MIN_VALUE;
        long to = Long.MAX_VALUE;
        double days = 0;
        double notebooks = 0;
        long seed = 1;
        Duration halfLife = Duration.ZERO;
        Duration window = FairShareSettings.INSTANTANEOUS.window();
        NodeModels nodeModels = null;
        double pinShare = -1;
        Long pinSeed = null;
        boolean windowGiven = false;
        boolean seedGiven = false;
        for (CliOptions.Option option : CliOptions.parse(args, VALUED, Set.of("--json"))) {
            String value = option.value();
            switch (option.name()) {
                case "--json" -> json = true;
                case "--jobs" -> jobs = Path.of(value);
                case "--teams" -> teams = Path.of(value);
                case "--nodes" -> {
                    if (value.matches("\\d+")) {
                        nodeCount = positive("--nodes", value);
                    } else {
                        nodesFile = Path.of(value);
                    }
                }
                case "--gpus-per-node" -> gpusPerNode = positive("--gpus-per-node", value);
                case "--load" -> load = positiveNumber("--load", value);
                case "--policy" ->
                    policies = value.trim().equalsIgnoreCase("all") ? Baselines.all() : List.of(Baselines.named(value));
                case "--charts" -> charts = Path.of(value);
                case "--from" -> from = time("--from", value);
                case "--to" -> to = time("--to", value);
                case "--days" -> days = positiveNumber("--days", value);
                case "--usage-half-life" -> halfLife = duration("--usage-half-life", value);
                case "--usage-window" -> {
                    window = duration("--usage-window", value);
                    windowGiven = true;
                }
                case "--add-notebooks" -> {
                    notebooks = positiveNumber("--add-notebooks", value);
                    if (notebooks > NotebookWorkload.MAX_RATE) {
                        // the draw is capped there: a larger rate gave the same notebooks in silence
                        throw new IllegalArgumentException("--add-notebooks must be at most "
                                + NotebookWorkload.MAX_RATE + " notebooks a working day per team, was " + value);
                    }
                }
                case "--seed" -> {
                    seed = seed("--seed", value);
                    seedGiven = true;
                }
                case "--node-models" -> nodeModels = nodeModels(value);
                case "--pin-models" -> pinShare = share("--pin-models", value);
                case "--pin-seed" -> pinSeed = seed("--pin-seed", value);
                default -> throw new IllegalArgumentException("unknown option '" + option.name() + "'");
            }
        }
        FairShareSettings fairShare = fairShare(halfLife, window);
        policies = policies.stream().map(p -> p.withFairShare(fairShare)).toList();
        if (jobs == null) {
            throw new IllegalArgumentException("--jobs is required (a Philly trace CSV or the replay's job format)");
        }
        int sizings = (nodesFile != null ? 1 : 0) + (nodeCount > 0 ? 1 : 0) + (load > 0 ? 1 : 0);
        if (sizings != 1) {
            throw new IllegalArgumentException("give exactly one of --nodes FILE, --nodes N (with --gpus-per-node G)"
                    + " or --load X (nodes of --gpus-per-node GPUs for that load)");
        }
        if (nodeModels != null && nodesFile != null) {
            throw new IllegalArgumentException("--node-models is for generated nodes (--nodes N or --load X); the node"
                    + " list of --nodes FILE names each node's model itself");
        }
        // an option that only qualifies another one, given alone, would be ignored in silence
        if (windowGiven && halfLife.isZero()) {
            throw new IllegalArgumentException(
                    "--usage-window bounds the usage that --usage-half-life remembers; give --usage-half-life too");
        }
        if (seedGiven && notebooks <= 0) {
            throw new IllegalArgumentException("--seed seeds --add-notebooks; give --add-notebooks RATE too");
        }
        if (pinShare >= 0 && nodeModels == null && nodesFile == null) {
            throw new IllegalArgumentException("--pin-models pins jobs to the cluster's GPU models; give them with"
                    + " --node-models (generated nodes) or --nodes FILE");
        }
        if (pinSeed != null && pinShare < 0) {
            throw new IllegalArgumentException("--pin-seed seeds --pin-models; give --pin-models FRACTION too");
        }
        ModelPins pins =
                pinShare < 0 ? null : new ModelPins(pinShare, pinSeed == null ? ModelPins.DEFAULT_SEED : pinSeed);
        if (days > 0 && to != Long.MAX_VALUE) {
            throw new IllegalArgumentException("--days and --to both end the slice; give one of them");
        }
        if (to <= from) {
            throw new IllegalArgumentException("--to must be after --from");
        }
        return new ReplayOptions(
                jobs,
                teams,
                nodesFile,
                nodeCount,
                gpusPerNode,
                load,
                policies,
                json,
                charts,
                from,
                to,
                days,
                notebooks,
                seed,
                nodeModels == null ? NodeModels.SINGLE : nodeModels,
                pins,
                false);
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 1) {
                throw new IllegalArgumentException(option + " must be at least 1, was " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, was '" + value + "'");
        }
    }

    private static NodeModels nodeModels(String value) {
        try {
            return NodeModels.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--node-models: " + e.getMessage());
        }
    }

    private static double share(String option, String value) {
        try {
            double x = Double.parseDouble(value.trim());
            if (!(x >= 0 && x <= 1)) {
                throw new IllegalArgumentException(option + " must be a share of the jobs in 0..1, was " + value);
            }
            return x;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a number in 0..1 such as 0.5, was '" + value + "'");
        }
    }

    private static long seed(String option, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, was '" + value + "'");
        }
    }

    private static FairShareSettings fairShare(Duration halfLife, Duration window) {
        try {
            return new FairShareSettings(halfLife, window);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--usage-half-life / --usage-window: " + e.getMessage());
        }
    }

    /** A duration as the service's settings write it: 12h, 30m, 7d, 90s, or ISO-8601 (PT12H); 0 for none. */
    private static Duration duration(String option, String value) {
        String v = value.trim();
        Matcher m = DURATION.matcher(v);
        try {
            if (v.equals("0")) {
                return Duration.ZERO;
            }
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            return Duration.parse(v);
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(
                    option + " must be a duration such as 12h, 30m, 7d or PT12H, was '" + value + "'");
        }
    }

    private static double positiveNumber(String option, String value) {
        try {
            double x = Double.parseDouble(value.trim());
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new IllegalArgumentException(option + " must be a number above 0, was " + value);
            }
            return x;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a number such as 1.0, was '" + value + "'");
        }
    }

    /**
     * {@code YYYY-mm-dd} or {@code YYYY-mm-ddTHH:MM[:SS]} (or with a space for the T), UTC, as the traces' timestamps
     * are read; or with a zone, {@code Z} or an offset ({@code 2017-10-01T10:00+02:00}), as the submit column takes it.
     */
    private static long time(String option, String value) {
        String text = value.trim();
        try {
            return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            // no zone: UTC, below
        }
        try {
            if (text.length() == 10) {
                return LocalDate.parse(text)
                        .atStartOfDay()
                        .toInstant(ZoneOffset.UTC)
                        .toEpochMilli();
            }
            return LocalDateTime.parse(text.replace(' ', 'T'))
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " must be a date (2017-10-01) or a time (2017-10-01T08:00,"
                    + " UTC, or with a zone: 2017-10-01T08:00Z, 2017-10-01T10:00+02:00), was '" + value + "'");
        }
    }
}

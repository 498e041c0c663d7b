package io.quotient.core.request;

import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a request as written ({@link JobRequestInput}) into a {@link JobSpec}, or refuses it with a
 * {@link RequestException} naming the field (as the REST API spells it) and the reason. Checks happen before
 * anything is recorded, so a refused request changes nothing.
 */
public final class JobSpecValidator {

    /** Job names become Kubernetes object names and label values: a DNS-1123 label. */
    public static final int MAX_NAME_LENGTH = 63;
    /** Job priorities are relative within a team; the bound keeps them readable and free of overflow. */
    public static final int MAX_PRIORITY = 1000;
    /** The largest gang: one replica per node, and no cluster Quotient serves has more nodes for one job. */
    public static final int MAX_REPLICAS = 256;

    /** The most whole GPUs one replica may ask for: no node has more, and GPU arithmetic stays far from overflow. */
    public static final int MAX_GPUS_PER_REPLICA = 1024;
    /** The most MiB of one GPU a request may name (1 TiB): more than any GPU has, and bytes of it fit a long. */
    public static final long MAX_GPU_MEMORY_MIB = 1L << 20;
    /** The most MiB of memory a job may ask for: its bytes must fit the 64-bit number of a Kubernetes quantity. */
    public static final long MAX_MEMORY_MIB = (1L << 43) - 1;
    /** Ends the reason for a GPU count beyond one node: "at most 1024 GPUs per replica (one node) can be asked for". */
    static final String PER_REPLICA_LIMIT =
            "at most " + MAX_GPUS_PER_REPLICA + " GPUs per replica (one node) can be asked for";
    /** Why a share finer than a thousandth is refused rather than rounded (REST fields and webhook annotations). */
    static final String FINER_THAN_A_THOUSANDTH =
            "is finer than a thousandth of a GPU, the unit shares are kept in; write at most three decimals";
    /** The most GPU models one job may accept: more than any cluster has, and a reason naming them stays short. */
    public static final int MAX_MODELS = 64;
    /** The cluster's maximum minimum runtime unless configured ({@code quotient.scheduling.max-min-runtime}). */
    public static final Duration DEFAULT_MAX_MIN_RUNTIME = Duration.ofHours(1);

    /** Why minimum runtimes are bounded, and what to do: ends with "ask for at most " (the limit follows). */
    public static final String MIN_RUNTIME_WHY = "a minimum runtime keeps a job on GPUs it may have borrowed, and their"
            + " owner must get them back; checkpoint at least that often and ask for at most ";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private final Duration maxMinRuntime;

    /** A validator with the default maximum minimum runtime (one hour). */
    public JobSpecValidator() {
        this(DEFAULT_MAX_MIN_RUNTIME);
    }

    /**
     * @param maxMinRuntime the longest minimum runtime any job may ask for: a job on borrowed GPUs is protected from
     *                      reclaim that long at most, so it bounds how long an owner can be kept from its guarantee
     */
    public JobSpecValidator(Duration maxMinRuntime) {
        if (maxMinRuntime == null || maxMinRuntime.isNegative()) {
            throw new IllegalArgumentException(
                    "the maximum minimum runtime must be zero or more, was " + maxMinRuntime);
        }
        this.maxMinRuntime = maxMinRuntime;
    }

    /**
     * The validated job of a configured team.
     *
     * @throws UnknownTeamException when the team is not among {@code teams}
     * @throws RequestException     naming the offending field and the reason
     */
    public JobSpec validate(JobRequestInput input, Map<String, Team> teams) {
        JobSpec spec = validateRequest(input);
        if (!teams.containsKey(spec.team())) {
            throw new UnknownTeamException(spec.team(), teams.keySet());
        }
        return spec;
    }

    /**
     * The validated job without checking that its team is configured: for requests already recorded, whose team
     * may have been removed from the configuration since (their pods still hold GPUs and must be counted).
     *
     * @throws RequestException naming the offending field and the reason
     */
    public JobSpec validateRequest(JobRequestInput input) {
        JobSpec spec = checked(input);
        if (spec.minRuntime().compareTo(maxMinRuntime) > 0) {
            throw new RequestException(
                    "minRuntimeSeconds",
                    "is " + spec.minRuntime().toSeconds() + "; at most "
                            + maxMinRuntime.toSeconds() + " seconds are allowed on this cluster: " + MIN_RUNTIME_WHY
                            + maxMinRuntime.toSeconds());
        }
        return spec;
    }

    private static JobSpec checked(JobRequestInput input) {
        if (input == null) {
            throw new RequestException("body", "the request is empty");
        }
        String team = requireName("team", input.team());
        String name = requireName("name", input.name());
        GpuRequest gpu = gpuRequest(input.gpu());
        Set<String> models = models(input.placement().models(), gpu);
        long cpu = nonNegative("cpuMilli", input.resources().cpuMilli());
        long memory = nonNegative("memoryMib", input.resources().memoryMib());
        if (memory > MAX_MEMORY_MIB) {
            // Kubernetes keeps a memory quantity in bytes as a 64-bit number: more MiB than that cannot be asked for
            throw new RequestException(
                    "memoryMib",
                    "must be at most " + MAX_MEMORY_MIB + " MiB (8 EiB, the most a Kubernetes quantity holds in"
                            + " bytes) (was " + memory + ")");
        }
        RuntimeOptions runtime = input.runtime();
        int priority = priority(runtime.priority());
        boolean preemptible = runtime.preemptible() == null || runtime.preemptible();
        Duration minRuntime = Duration.ofSeconds(nonNegative("minRuntimeSeconds", runtime.minRuntimeSeconds()));
        return new JobSpec(
                new JobId(team, name),
                gpu,
                cpu,
                memory,
                models,
                priority,
                preemptible,
                minRuntime,
                gang(input.gang(), gpu),
                kind(input.runtime().kind()));
    }

    private static JobKind kind(String kind) {
        if (kind == null) {
            return JobKind.TRAIN;
        }
        try {
            return JobKind.fromWireName(kind);
        } catch (IllegalArgumentException e) {
            throw new RequestException("kind", e.getMessage());
        }
    }

    /** Replicas run one per node, so each must ask for GPUs: a CPU-only gang has nothing for Quotient to place. */
    private static Gang gang(GangAsk in, GpuRequest gpu) {
        int replicas = in.replicas() == null ? 1 : in.replicas();
        if (replicas < 1 || replicas > MAX_REPLICAS) {
            throw new RequestException(
                    "replicas", "is " + replicas + "; use 1 to " + MAX_REPLICAS + " (one replica per node)");
        }
        int min = in.minReplicas() == null ? replicas : in.minReplicas();
        if (min < 1 || min > replicas) {
            throw new RequestException(
                    "minReplicas",
                    "is " + min + "; use 1 to replicas (" + replicas + "), or leave it out for a rigid gang");
        }
        if (replicas > 1 && !(gpu instanceof GpuRequest.WholeGpus w && w.count() > 0)) {
            throw new RequestException(
                    "replicas",
                    "is " + replicas + " but "
                            + (gpu.devices() == 0 ? "no GPU is asked for" : "the GPUs asked are shares")
                            + "; a gang places one replica with whole"
                            + " GPUs per node: ask for gpu.count (whole GPUs per replica)");
        }
        return new Gang(replicas, min);
    }

    private static String requireName(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new RequestException(field, "is required");
        }
        if (value.length() > MAX_NAME_LENGTH) {
            throw new RequestException(
                    field,
                    "is " + value.length() + " characters long; at most " + MAX_NAME_LENGTH
                            + " are allowed (it names Kubernetes objects)");
        }
        if (!DNS_LABEL.matcher(value).matches()) {
            throw new RequestException(
                    field,
                    "'" + value + "' is not a valid name: use lower-case letters, digits"
                            + " and '-', starting and ending with a letter or digit (a DNS-1123 label)");
        }
        return value;
    }

    private static GpuRequest gpuRequest(GpuAsk in) {
        boolean whole = in.count() != null;
        boolean fraction = in.fraction() != null;
        boolean memory = in.memoryMib() != null;
        if (whole && (fraction || memory)) {
            throw new RequestException(
                    "gpu.count",
                    "cannot be combined with gpu." + (fraction ? "fraction" : "memoryMib")
                            + "; ask for whole GPUs, a fraction or MiB of a GPU");
        }
        if (fraction && memory) {
            throw new RequestException(
                    "gpu.memoryMib",
                    "cannot be combined with gpu.fraction; ask for a fraction or" + " for MiB of a GPU, not both");
        }
        if (in.fractionLimit() != null && !fraction) {
            throw new RequestException("gpu.fractionLimit", "needs gpu.fraction (the guaranteed share it bursts from)");
        }
        if (in.memoryLimitMib() != null && !memory) {
            throw new RequestException("gpu.memoryLimitMib", "needs gpu.memoryMib (the guaranteed MiB it bursts from)");
        }
        if (in.devices() != null && !fraction && !memory) {
            throw new RequestException(
                    "gpuDevices",
                    "applies only to gpu.fraction or gpu.memoryMib; ask for whole" + " GPUs with gpu.count");
        }
        if (whole) {
            if (in.count() <= 0) {
                throw new RequestException(
                        "gpu.count",
                        "must be at least 1 (was " + in.count() + "); leave gpu out for a job without GPUs");
            }
            if (in.count() > MAX_GPUS_PER_REPLICA) {
                throw new RequestException("gpu.count", "is " + in.count() + "; " + PER_REPLICA_LIMIT);
            }
            return new GpuRequest.WholeGpus(in.count());
        }
        int devices = devices(in.devices());
        if (fraction) {
            int milli = fractionMilli("gpu.fraction", in.fraction(), false);
            int limit =
                    in.fractionLimit() == null ? milli : fractionMilli("gpu.fractionLimit", in.fractionLimit(), true);
            if (limit < milli) {
                throw new RequestException(
                        "gpu.fractionLimit",
                        "(" + in.fractionLimit() + ") must not be below" + " gpu.fraction (" + in.fraction() + ")");
            }
            return new GpuRequest.Fraction(milli, limit, devices);
        }
        if (memory) {
            long mib = gpuMib("gpu.memoryMib", in.memoryMib());
            long limit = in.memoryLimitMib() == null ? mib : gpuMib("gpu.memoryLimitMib", in.memoryLimitMib());
            if (limit < mib) {
                throw new RequestException(
                        "gpu.memoryLimitMib", "(" + limit + ") must not be below gpu.memoryMib (" + mib + ")");
            }
            return new GpuRequest.Memory(mib, limit, devices);
        }
        return new GpuRequest.None();
    }

    private static long gpuMib(String field, long mib) {
        if (mib <= 0 || mib > MAX_GPU_MEMORY_MIB) {
            throw new RequestException(
                    field,
                    "must be from 1 to " + MAX_GPU_MEMORY_MIB + " MiB (1 TiB, more than any GPU" + " has) (was " + mib
                            + ")");
        }
        return mib;
    }

    private static int devices(Integer devices) {
        if (devices == null) {
            return 1;
        }
        if (devices <= 0 || devices > MAX_GPUS_PER_REPLICA) {
            throw new RequestException(
                    "gpuDevices", "must be from 1 to " + MAX_GPUS_PER_REPLICA + " (was " + devices + ")");
        }
        return devices;
    }

    /**
     * A share in milli-GPU, judged on the decimal as written: the request must be strictly inside (0, 1), a limit may
     * reach 1, and neither may be finer than a thousandth (shares are kept in thousandths; a finer value would be
     * rounded in silence and the job given another share than it asked for).
     */
    private static int fractionMilli(String field, BigDecimal value, boolean mayBeWhole) {
        int toOne = value.compareTo(BigDecimal.ONE);
        if (value.signum() <= 0 || toOne > 0 || (!mayBeWhole && toOne == 0)) {
            throw new RequestException(
                    field,
                    "must be greater than 0 and " + (mayBeWhole ? "at most 1" : "less than 1") + " (was " + value + ")"
                            + (mayBeWhole ? "" : "; ask for whole GPUs with gpu.count"));
        }
        BigDecimal milli = value.movePointRight(3);
        if (milli.stripTrailingZeros().scale() > 0) {
            // the nearest thousandth from the double: rounding the decimal itself to scale 0 costs a power of ten as
            // long as its exponent, and 1e-999999999 is a short JSON number
            double nearest = Math.max(0.001, Math.round(value.doubleValue() * 1000) / 1000.0);
            throw new RequestException(
                    field,
                    "(" + value + ") " + FINER_THAN_A_THOUSANDTH + " (such as "
                            + (mayBeWhole ? nearest : Math.min(nearest, 0.999)) + ")");
        }
        // integral and within (0, 1000]
        return milli.intValueExact();
    }

    /**
     * The allowed models, each checked where it is written ({@code gpuModels[i]}): a null, an empty name, one named
     * twice or a name no node label can hold is refused, not dropped, trimmed or merged.
     */
    private static Set<String> models(List<String> requested, GpuRequest gpu) {
        if (requested == null || requested.isEmpty()) {
            return Set.of();
        }
        if (gpu instanceof GpuRequest.None) {
            throw new RequestException("gpuModels", "applies only to jobs that request GPUs");
        }
        if (requested.size() > MAX_MODELS) {
            throw new RequestException(
                    "gpuModels",
                    "names " + requested.size() + " models; at most " + MAX_MODELS + " may be named (each is a GPU"
                            + " model of the cluster's nodes)");
        }
        Map<String, Integer> models = new LinkedHashMap<>();
        for (int i = 0; i < requested.size(); i++) {
            String field = "gpuModels[" + i + "]";
            String model = requested.get(i);
            if (model == null) {
                throw new RequestException(field, "must be a string (a GPU model name), not null");
            }
            if (model.isEmpty()) {
                throw new RequestException(field, "is empty; name a GPU model such as NVIDIA-A100-SXM4-80GB");
            }
            if (model.chars().anyMatch(Character::isISOControl)) {
                throw new RequestException(
                        field,
                        "must not contain control characters (a model is a node label"
                                + " value such as NVIDIA-A100-SXM4-80GB)");
            }
            // read as written: a space around a model is no part of any label value, not something to trim away;
            // a node's model is its nvidia.com/gpu.product label: a name no label can hold is on no node, now or
            // after the cluster grows, so the job could never run (unlike a valid model no node has yet: 202)
            if (!LabelValue.valid(model)) {
                throw new RequestException(
                        field,
                        "'" + excerpt(model) + "' (" + model.length() + " characters) is not a GPU model name: a model"
                                + " is " + LabelValue.GPU_MODEL_RULE + " (such as NVIDIA-A100-SXM4-80GB)");
            }
            Integer earlier = models.putIfAbsent(model, i);
            if (earlier != null) {
                throw new RequestException(
                        field, "names '" + model + "' again (as gpuModels[" + earlier + "]); name each model once");
            }
        }
        return new LinkedHashSet<>(models.keySet());
    }

    /** A value quoted back in a reason, cut: an answer names what was wrong, it does not echo a whole payload. */
    private static String excerpt(String value) {
        return value.length() > LabelValue.MAX_LENGTH + 1
                ? value.substring(0, LabelValue.MAX_LENGTH + 1) + "..."
                : value;
    }

    private static long nonNegative(String field, Long value) {
        if (value == null) {
            return 0;
        }
        if (value < 0) {
            throw new RequestException(field, "must not be negative (was " + value + ")");
        }
        return value;
    }

    private static int priority(Integer value) {
        if (value == null) {
            return 0;
        }
        if (value < -MAX_PRIORITY || value > MAX_PRIORITY) {
            throw new RequestException(
                    "priority", "must be between " + -MAX_PRIORITY + " and " + MAX_PRIORITY + " (was " + value + ")");
        }
        return value;
    }
}

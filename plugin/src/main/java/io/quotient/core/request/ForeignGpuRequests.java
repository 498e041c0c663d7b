package io.quotient.core.request;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.PodGpuAsk;
import io.quotient.core.model.ReplicaGroup;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the GPU request of a workload created with kubectl, the Kubeflow UI or an SDK (not through Quotient's API)
 * from its pod template: whole GPUs from the containers' {@code nvidia.com/gpu} limits, shares from the Run:ai/KAI
 * annotations as their users write them:
 * <ul>
 *   <li>{@code gpu-fraction: "0.5"} (optionally {@code gpu-fraction-limit: "0.8"}) → {@link GpuRequest.Fraction}</li>
 *   <li>{@code gpu-memory: "2000"} MiB (optionally {@code gpu-memory-limit: "4000"}) → {@link GpuRequest.Memory}</li>
 *   <li>{@code gpu-fraction-num-devices: "4"}: the same share on that many GPUs of one node</li>
 * </ul>
 * The same rules as a REST request apply (a fraction and MiB never together, a limit never below its request), but a
 * refusal names the annotation or limit as written, so the author knows what to change. No GPU asked: not ours.
 */
public final class ForeignGpuRequests {

    public static final String FRACTION = "gpu-fraction";
    public static final String FRACTION_LIMIT = "gpu-fraction-limit";
    public static final String MEMORY = "gpu-memory";
    public static final String MEMORY_LIMIT = "gpu-memory-limit";
    public static final String DEVICES = "gpu-fraction-num-devices";

    private static final Pattern WHOLE = Pattern.compile("[0-9]{1,6}");
    private static final Pattern WHOLE_UP_TO_12 = Pattern.compile("[0-9]{1,12}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,16}(\\.[0-9]{1,16})?|\\.[0-9]{1,16}");

    private ForeignGpuRequests() {}

    /**
     * The GPUs the pod template asks for, or empty when it asks for none (the workload is not Quotient's).
     *
     * @throws RequestException naming the annotation or limit and the reason
     */
    public static Optional<GpuRequest> parse(PodGpuAsk ask) {
        int whole = wholeGpus(ask.gpuLimits());
        Map<String, String> a = ask.annotations();
        String prefix = ask.annotationsField();
        boolean fraction = a.containsKey(FRACTION);
        boolean memory = a.containsKey(MEMORY);
        if (fraction && memory) {
            throw new RequestException(
                    field(prefix, MEMORY),
                    "cannot be combined with " + FRACTION + "; ask for a"
                            + " fraction of a GPU or for MiB of it, not both");
        }
        requireBase(ask, FRACTION_LIMIT, FRACTION);
        requireBase(ask, MEMORY_LIMIT, MEMORY);
        if (a.containsKey(DEVICES) && !fraction && !memory) {
            throw new RequestException(
                    field(prefix, DEVICES),
                    "applies only to " + FRACTION + " or " + MEMORY
                            + "; ask for whole GPUs with the nvidia.com/gpu limit");
        }
        if ((fraction || memory) && whole > 0) {
            throw new RequestException(
                    ask.gpuLimits().keySet().iterator().next(),
                    "cannot be combined with the "
                            + (fraction ? FRACTION : MEMORY)
                            + " annotation; ask for whole GPUs (nvidia.com/gpu) or for a share"
                            + " of a GPU, not both");
        }
        if (fraction) {
            int milli = milli(prefix, FRACTION, a.get(FRACTION), false);
            int limit =
                    a.containsKey(FRACTION_LIMIT) ? milli(prefix, FRACTION_LIMIT, a.get(FRACTION_LIMIT), true) : milli;
            if (limit < milli) {
                throw new RequestException(
                        field(prefix, FRACTION_LIMIT),
                        "(" + a.get(FRACTION_LIMIT) + ") must not be" + " below " + FRACTION + " (" + a.get(FRACTION)
                                + ")");
            }
            return Optional.of(new GpuRequest.Fraction(milli, limit, devices(ask)));
        }
        if (memory) {
            long mib = positive(prefix, MEMORY, a.get(MEMORY), "MiB");
            long limit = a.containsKey(MEMORY_LIMIT) ? positive(prefix, MEMORY_LIMIT, a.get(MEMORY_LIMIT), "MiB") : mib;
            if (limit < mib) {
                throw new RequestException(
                        field(prefix, MEMORY_LIMIT), "(" + limit + ") must not be below " + MEMORY + " (" + mib + ")");
            }
            return Optional.of(new GpuRequest.Memory(mib, limit, devices(ask)));
        }
        return whole == 0 ? Optional.empty() : Optional.of(new GpuRequest.WholeGpus(whole));
    }

    /**
     * The demand of a whole workload from its replica groups, or empty when none asks for GPUs. Several replicas form a
     * gang, which the scheduler places one per node with the same whole GPUs each: groups that ask differently, a
     * group without GPUs beside ones with GPUs, and shares in a gang are refused.
     *
     * @throws RequestException naming the annotation, limit or replica count and the reason
     */
    public static Optional<ForeignDemand> demand(List<ReplicaGroup> groups) {
        GpuRequest perReplica = null;
        String firstField = null;
        int replicas = 0;
        boolean someWithout = false;
        for (ReplicaGroup group : groups) {
            if (group.replicas() < 0) {
                throw new RequestException(
                        group.replicasField(), "must not be negative (was " + group.replicas() + ")");
            }
            Optional<GpuRequest> gpu = parse(group.ask());
            if (group.replicas() == 0) {
                continue;
            }
            if (gpu.isEmpty()) {
                someWithout = true;
                continue;
            }
            if (perReplica != null && !perReplica.equals(gpu.get())) {
                throw new RequestException(
                        group.replicasField(),
                        "these replicas ask for other GPUs than " + firstField
                                + "; Quotient places a distributed job as a gang of replicas with the same GPUs each, one per"
                                + " node: give every replica the same nvidia.com/gpu limit");
            }
            perReplica = gpu.get();
            firstField = firstField == null ? group.replicasField() : firstField;
            replicas += group.replicas();
        }
        if (perReplica == null) {
            return Optional.empty();
        }
        if (someWithout) {
            throw new RequestException(
                    firstField,
                    "some replicas of this job ask for GPUs and others do not; Quotient"
                            + " places a distributed job as a gang of replicas with the same GPUs each, one per node: give"
                            + " every replica the same nvidia.com/gpu limit");
        }
        if (replicas > 1 && !(perReplica instanceof GpuRequest.WholeGpus)) {
            throw new RequestException(
                    firstField,
                    replicas + " replicas ask for a share of a GPU; a gang places one"
                            + " replica with whole GPUs per node: use the nvidia.com/gpu limit");
        }
        if (replicas > JobSpecValidator.MAX_REPLICAS) {
            throw new RequestException(
                    firstField,
                    replicas + " replicas; at most " + JobSpecValidator.MAX_REPLICAS + " (one replica per node)");
        }
        return Optional.of(new ForeignDemand(perReplica, replicas));
    }

    /** The field a refusal names: an annotation as kubectl explain spells map keys. */
    public static String field(String annotationsField, String annotation) {
        return annotationsField + "[" + annotation + "]";
    }

    private static void requireBase(PodGpuAsk ask, String limit, String base) {
        if (ask.annotations().containsKey(limit) && !ask.annotations().containsKey(base)) {
            throw new RequestException(
                    field(ask.annotationsField(), limit), "needs " + base + " (the guaranteed share it bursts from)");
        }
    }

    /**
     * Whole GPUs of all containers; extended resources are integers, so "0.5" or "1Gi" is refused here. Values are read
     * as written: no space or control character around them (the admission review carries them as the workload's
     * author wrote them) and ASCII digits only.
     */
    private static int wholeGpus(Map<String, String> limits) {
        long total = 0;
        for (Map.Entry<String, String> limit : limits.entrySet()) {
            String value = limit.getValue() == null ? "" : limit.getValue();
            if (!WHOLE.matcher(value).matches()) {
                throw new RequestException(
                        limit.getKey(),
                        "'" + limit.getValue() + "' is not a whole number of GPUs;"
                                + " nvidia.com/gpu counts whole GPUs (for a share of one use the " + FRACTION + " or "
                                + MEMORY
                                + " annotation)");
            }
            total += Long.parseLong(value);
            if (total > JobSpecValidator.MAX_GPUS_PER_REPLICA) {
                throw new RequestException(
                        limit.getKey(),
                        "the containers ask for " + total + " GPUs; " + JobSpecValidator.PER_REPLICA_LIMIT);
            }
        }
        return (int) total;
    }

    private static int devices(PodGpuAsk ask) {
        String value = ask.annotations().get(DEVICES);
        if (value == null) {
            return 1;
        }
        long devices = positive(ask.annotationsField(), DEVICES, value, "GPUs");
        if (devices > JobSpecValidator.MAX_GPUS_PER_REPLICA) {
            // read as a long and checked before it is narrowed: 4294967297 was taken for 1 device
            throw new RequestException(
                    field(ask.annotationsField(), DEVICES), "is " + value + "; " + JobSpecValidator.PER_REPLICA_LIMIT);
        }
        return (int) devices;
    }

    /** A share in milli-GPU: a request strictly inside (0, 1), a limit up to 1, at least 0.001. */
    private static int milli(String prefix, String annotation, String text, boolean mayBeWhole) {
        BigDecimal value = decimal(prefix, annotation, text);
        boolean inRange = value.signum() > 0
                && value.compareTo(BigDecimal.ONE) <= 0
                && (mayBeWhole || value.compareTo(BigDecimal.ONE) < 0);
        long milli = inRange
                ? value.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValue()
                : 0;
        if (!inRange || milli < 1 || (!mayBeWhole && milli >= 1000)) {
            throw new RequestException(
                    field(prefix, annotation),
                    "must be greater than 0 and " + (mayBeWhole ? "at most 1" : "less than 1")
                            + ", at least 0.001 (was \"" + text + "\")"
                            + (mayBeWhole ? "" : "; ask for whole GPUs with the nvidia.com/gpu limit"));
        }
        if (value.stripTrailingZeros().scale() > 3) {
            // shares are kept in thousandths: a finer share would be rounded in silence (as the REST API refuses it)
            throw new RequestException(
                    field(prefix, annotation), "(\"" + text + "\") " + JobSpecValidator.FINER_THAN_A_THOUSANDTH);
        }
        return (int) milli;
    }

    /**
     * A decimal written in ASCII digits with at most one point, nothing around it: BigDecimal alone also reads "+0.5",
     * "5e-1" and other scripts' digits ("٠.٥"), and trimming read " 0.5", "0.5\n" and "0.5" with a NUL after it.
     */
    private static BigDecimal decimal(String prefix, String annotation, String text) {
        if (text == null || !DECIMAL.matcher(text).matches()) {
            throw new RequestException(
                    field(prefix, annotation),
                    "\"" + text + "\" is not a number written in the digits 0-9 with at most one '.';"
                            + " write it as Run:ai does, e.g. \"0.5\"");
        }
        return new BigDecimal(text);
    }

    private static long positive(String prefix, String annotation, String text, String unit) {
        String value = text == null ? "" : text;
        if (!WHOLE_UP_TO_12.matcher(value).matches() || Long.parseLong(value) < 1) {
            throw new RequestException(
                    field(prefix, annotation),
                    "must be a whole number of " + unit + ", at least 1" + " (was \"" + text + "\")");
        }
        return Long.parseLong(value);
    }
}

package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pins a share of a trace's jobs to one GPU model each ({@code --pin-models FRACTION}), for traces that name no
 * models (Philly): the replay's stand-in for jobs that need a given GPU. A pinned job runs only on nodes of its model;
 * a gang's replicas all do (gangs run on one model anyway; the pin says which).
 *
 * <p>The draw is per job and depends only on the seed and the job's name: two numbers u₁, u₂ in [0, 1) from
 * SplitMix64 seeded with {@code seed} XOR the 64-bit FNV-1a hash of the name (UTF-8). The job is pinned when u₁ &lt;
 * fraction; its model is the one whose interval of [0, 1) holds u₂, the models in name order, each interval as long as
 * the model's share of the fleet's GPUs among the models that can hold the job (whose GPUs in total are at least the
 * job's). So a job keeps its pin whatever slice of the trace is replayed, and the pins follow the fleet's proportions.
 * Not pinned: jobs without GPUs, jobs that already name models, jobs no model can hold.
 *
 * @param fraction the share of jobs pinned, 0..1
 * @param seed     the draw's seed ({@link #DEFAULT_SEED} unless {@code --pin-seed} says otherwise)
 */
public record ModelPins(double fraction, long seed) {

    public static final long DEFAULT_SEED = 42;

    /** SplitMix64's increment. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    public ModelPins {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("the share of pinned jobs must be in 0..1, was " + fraction);
        }
    }

    /** The jobs, a share of them pinned to one model of {@code nodes} each; in the same order. */
    public List<ReplayJob> pin(List<ReplayJob> jobs, List<NodeSpec> nodes) {
        Map<String, Long> gpusByModel = new TreeMap<>();
        for (NodeSpec n : nodes) {
            if (n.gpuCount() > 0 && !n.gpuModel().isEmpty()) {
                gpusByModel.merge(n.gpuModel(), (long) n.gpuCount(), Long::sum);
            }
        }
        List<ReplayJob> pinned = new ArrayList<>(jobs.size());
        for (ReplayJob job : jobs) {
            String model = modelFor(job, gpusByModel, nodes);
            pinned.add(model == null ? job : job.withModels(Set.of(model)));
        }
        return pinned;
    }

    /** The model the job is pinned to, or null. */
    String modelFor(ReplayJob job, Map<String, Long> gpusByModel, List<NodeSpec> nodes) {
        long milli = job.gpuMilli(nodes);
        if (milli == 0 || !job.models().isEmpty()) {
            return null;
        }
        long state = seed ^ fnv1a(job.name());
        state += GOLDEN;
        double pinDraw = unit(mix(state));
        state += GOLDEN;
        double modelDraw = unit(mix(state));
        if (pinDraw >= fraction) {
            return null;
        }
        List<Map.Entry<String, Long>> holding = gpusByModel.entrySet().stream()
                .filter(e -> e.getValue() * 1000 >= milli)
                .toList();
        long total = holding.stream().mapToLong(Map.Entry::getValue).sum();
        double upTo = 0;
        for (Map.Entry<String, Long> e : holding) {
            upTo += (double) e.getValue() / total;
            if (modelDraw < upTo) {
                return e.getKey();
            }
        }
        // rounding left u₂ just beyond the last interval's end
        return holding.isEmpty() ? null : holding.get(holding.size() - 1).getKey();
    }

    /** SplitMix64's output function. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The top 53 bits as a double in [0, 1). */
    private static double unit(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }

    private static long fnv1a(String text) {
        long h = 0xCBF29CE484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001B3L;
        }
        return h;
    }
}

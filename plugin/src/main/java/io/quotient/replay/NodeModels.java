package io.quotient.replay;

import io.quotient.core.request.LabelValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GPU models of a generated cluster and the share of its nodes each model gets ({@code --node-models
 * H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25}). {@link #assign} turns the shares into whole nodes by largest
 * remainders, so the same spec and node count always give the same cluster, whatever else the replay reads.
 *
 * @param shares the models in the order given, each with its share of the nodes (the shares sum to 1)
 */
public record NodeModels(List<Share> shares) {

    /** One model and the share of the nodes that carry it. */
    public record Share(String model, double fraction) {}

    /** The single model of a cluster whose nodes the trace does not tell apart. */
    public static final NodeModels SINGLE = new NodeModels(List.of(new Share(ClusterSize.MODEL, 1)));

    /** A trailing memory size in a model's name, {@code H100-80GB}: the memory of one of its GPUs. */
    private static final Pattern MEMORY = Pattern.compile(".*?(\\d{1,4})GB$");

    /**
     * How far the written shares may sum from 1: thirds written to three or four places ({@code 0.333} × 3 = 0.999)
     * are shares of 1 as meant; a sum further off is a mistake in a share, not a rounding.
     */
    private static final double SUM_TOLERANCE = 0.0015;

    public NodeModels {
        shares = List.copyOf(shares);
        if (shares.isEmpty()) {
            throw new IllegalArgumentException("name at least one GPU model");
        }
    }

    /**
     * Parses {@code MODEL:FRACTION[,MODEL:FRACTION...]}; the fractions must be above 0 and sum to 1 as written to
     * three places (within 0.0015); they are scaled to sum to exactly 1, so {@code a:0.333,b:0.333,c:0.333} gives
     * three equal thirds.
     *
     * @throws IllegalArgumentException naming the part that is wrong and what it should be
     */
    public static NodeModels parse(String spec) {
        List<Share> shares = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        double sum = 0;
        for (String part : spec.split(",", -1)) {
            String p = part.trim();
            int colon = p.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(
                        "'" + p + "' is not MODEL:FRACTION (e.g. H100-80GB:0.25,A100-SXM4-80GB:0.75)");
            }
            String model = p.substring(0, colon).trim();
            if (model.isEmpty() || !LabelValue.valid(model)) {
                throw new IllegalArgumentException(
                        "'" + model + "' is not a GPU model name (" + LabelValue.GPU_MODEL_RULE + ")");
            }
            if (!seen.add(model)) {
                throw new IllegalArgumentException("model " + model + " is named twice; give each model once");
            }
            double fraction = fraction(model, p.substring(colon + 1).trim());
            sum += fraction;
            shares.add(new Share(model, fraction));
        }
        if (Math.abs(sum - 1) > SUM_TOLERANCE) {
            throw new IllegalArgumentException("the fractions sum to " + sum + ", not 1; make them the shares of the"
                    + " nodes (e.g. 0.25,0.5,0.25)");
        }
        double total = sum;
        return new NodeModels(shares.stream()
                .map(s -> new Share(s.model(), s.fraction() / total))
                .toList());
    }

    private static double fraction(String model, String text) {
        try {
            double f = Double.parseDouble(text);
            if (!(f > 0 && f <= 1)) {
                throw new IllegalArgumentException(
                        "the fraction of model " + model + " must be above 0 and at most 1, was " + text);
            }
            return f;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "the fraction of model " + model + " must be a number such as 0.25, was '" + text + "'");
        }
    }

    /**
     * The model of each of {@code nodes} nodes: model i gets {@code floor(nodes × fraction_i)} nodes, the nodes left
     * go one each to the largest remainders (ties: the model given first), and the nodes are handed out in the order
     * the models are given (the first model's nodes first).
     */
    public List<String> assign(int nodes) {
        int[] counts = new int[shares.size()];
        int given = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = (int) Math.floor(nodes * shares.get(i).fraction());
            given += counts[i];
        }
        List<Integer> byRemainder = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            byRemainder.add(i);
        }
        // a stable sort keeps the order given among equal remainders
        byRemainder.sort((a, b) -> Double.compare(remainder(nodes, b), remainder(nodes, a)));
        for (int k = 0; given < nodes; k = (k + 1) % counts.length) {
            counts[byRemainder.get(k)]++;
            given++;
        }
        List<String> models = new ArrayList<>(nodes);
        for (int i = 0; i < counts.length; i++) {
            models.addAll(Collections.nCopies(counts[i], shares.get(i).model()));
        }
        return models;
    }

    private double remainder(int nodes, int i) {
        double exact = nodes * shares.get(i).fraction();
        return exact - Math.floor(exact);
    }

    /**
     * The memory of one GPU of the model: the size its name ends with ({@code H100-80GB}: 80 GiB), else {@code
     * fallback}. Only GPU-memory requests read it.
     */
    static long gpuMemoryMib(String model, long fallback) {
        Matcher m = MEMORY.matcher(model);
        return m.matches() ? Long.parseLong(m.group(1)) * 1024 : fallback;
    }
}

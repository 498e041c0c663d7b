package io.quotient.core.placement;

import java.util.List;
import java.util.Locale;

/** The placement policies selectable by name (configuration, CLI), each deterministic for a seed. */
public final class PlacementPolicies {

    private static final List<String> NAMES =
            List.of("random", "leastallocated", "dotprod", "clustering", "packing", "bestfit", "fgd", "quotient");

    private PlacementPolicies() {}

    /**
     * Every known policy name: the reference policies (the FGD simulator's, and the kube-scheduler's default
     * least-allocated scoring) first, Quotient's own last.
     */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * A new policy instance with its own random source.
     *
     * @param workload the expected task shapes; used by the fragmentation-aware policies
     * @throws IllegalArgumentException for an unknown name (the message lists the known ones)
     */
    public static PlacementPolicy create(String name, long seed, TargetWorkload workload) {
        return create(name, seed, workload, TieBreak.FIXED_ORDER);
    }

    /** A new policy instance whose ties among equally scored nodes are broken that way. */
    public static PlacementPolicy create(String name, long seed, TargetWorkload workload, TieBreak ties) {
        return scoring(name, seed, workload).withTies(ties);
    }

    /** Quotient's policy with other constants than {@link QuotientSettings#DEFAULT}: for the sensitivity table. */
    public static PlacementPolicy quotient(
            long seed, TargetWorkload workload, QuotientSettings settings, TieBreak ties) {
        return new QuotientPolicy(seed, workload, settings).withTies(ties);
    }

    private static ScoringPolicy scoring(String name, long seed, TargetWorkload workload) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "random" -> new RandomPolicy(seed);
            case "leastallocated" -> new LeastAllocatedPolicy(seed);
            case "dotprod" -> new DotProductPolicy(seed);
            case "clustering" -> new ClusteringPolicy(seed);
            case "packing" -> new PackingPolicy(seed);
            case "bestfit" -> new BestFitPolicy(seed);
            case "fgd" -> new FgdPolicy(seed, workload);
            case "quotient" -> new QuotientPolicy(seed, workload);
            default ->
                throw new IllegalArgumentException(
                        "unknown placement policy '" + name + "'; known policies: " + String.join(", ", NAMES));
        };
    }
}

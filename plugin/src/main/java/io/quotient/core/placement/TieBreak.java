package io.quotient.core.placement;

/** How a scoring policy chooses among nodes with the same best score. */
public enum TieBreak {
    /**
     * A random but fixed priority order of the nodes, drawn once from the seed: the FGD simulator's behaviour (it
     * prefixes node names with a random permutation and keeps the smallest among equal scores). Equal choices keep
     * landing on the same nodes, which consolidates work; the published reference figures were made this way.
     */
    FIXED_ORDER,
    /** A node drawn uniformly among the tied ones at every decision (kube-scheduler's own selectHost). */
    RANDOM
}

package io.quotient.core.placement;

/** How a scoring policy chooses among nodes with the same best score. */
public enum TieBreak {
    /**
     * A random but fixed priority order of the nodes, drawn once from the seed: the FGD simulator's behaviour, and
     * the one its published figures were made with. Its kube-scheduler fork (mental2008/kubernetes v1.20.5-minor,
     * {@code selectHost}) replaced upstream's reservoir sampling by "the lexicographically smallest node name among
     * equal scores" for reproducibility, and the simulator prefixes every node name with its place in a permutation
     * drawn from the run's seed. Equal choices keep landing on the same nodes, which consolidates work.
     */
    FIXED_ORDER,
    /**
     * A node drawn uniformly among the tied ones at every decision, from the seeded generator (upstream
     * kube-scheduler's {@code selectHost}). It spreads equal choices, which costs the reference policies with coarse
     * scores dearly, so it does not reproduce the published table (docs/research/packing.md, "Ties").
     */
    RANDOM
}

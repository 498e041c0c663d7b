package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Optional;
import java.util.Random;

/**
 * The kube-scheduler shape every reference policy shares: score each node that passes the filter and
 * fits, optionally min-max normalise the scores to 0..100 (integer arithmetic, as the FGD simulator's
 * score extension does), take the highest, then let the policy choose the GPUs on the winning node.
 *
 * <p>Ties follow the {@link TieBreak}: by default a random but fixed priority order drawn from the seed, as the FGD
 * simulator's kube-scheduler fork does (the smallest node name among equal scores, names prefixed with a seeded
 * permutation); or a uniform draw among the tied nodes at every decision, as upstream kube-scheduler does. The choice
 * matters for the reference policies: equal-score placements that keep landing on the same nodes consolidate work,
 * and drawn per decision they spread it (docs/research/packing.md, "Ties").
 */
abstract class ScoringPolicy implements PlacementPolicy {

    static final long MAX_SCORE = 100;

    private final String name;
    private final Random random;
    private int[] rank = new int[0];
    private TieBreak ties = TieBreak.FIXED_ORDER;

    ScoringPolicy(String name, long seed) {
        this.name = name;
        this.random = new Random(seed);
    }

    /** This policy with ties broken that way (set once, before the first placement). */
    final ScoringPolicy withTies(TieBreak tieBreak) {
        this.ties = tieBreak;
        return this;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Synchronised because policies keep per-placement scratch state (one placement at a time). */
    @Override
    public synchronized Optional<Allocation> place(ClusterState state, ResourceDemand demand, NodeFilter filter) {
        int n = state.nodeCount();
        int[] nodes = new int[n];
        long[] scores = new long[n];
        int count = 0;
        prepare(state, demand);
        for (int node = 0; node < n; node++) {
            if (filter.accepts(state, node) && state.fits(node, demand)) {
                nodes[count] = node;
                scores[count] = score(state, node, demand);
                count++;
            }
        }
        if (count == 0) {
            return Optional.empty();
        }
        if (normalises()) {
            normalise(scores, count);
        }
        if (rank.length != n) {
            rank = randomRanks(n);
        }
        int winner = selectHighest(nodes, scores, count);
        return Optional.of(allocationOn(state, winner, demand));
    }

    /** Called once per placement before scoring; policies that precompute per-demand data override it. */
    void prepare(ClusterState state, ResourceDemand demand) {}

    /** Higher is better. Only called for nodes the demand fits. */
    abstract long score(ClusterState state, int node, ResourceDemand demand);

    /** Whether raw scores are min-max normalised to 0..100 before the highest is taken. */
    boolean normalises() {
        return true;
    }

    /** The allocation on the chosen node; by default the tightest-fitting GPUs. */
    Allocation allocationOn(ClusterState state, int node, ResourceDemand demand) {
        return tightestAllocation(state, node, demand);
    }

    final Random random() {
        return random;
    }

    static Allocation tightestAllocation(ClusterState state, int node, ResourceDemand demand) {
        return allocationWithGpus(
                state, node, demand, demand.needsGpu() ? GpuPicker.tightest(state, node, demand) : new int[0]);
    }

    static Allocation allocationWithGpus(ClusterState state, int node, ResourceDemand demand, int[] gpus) {
        return Allocation.of(demand, node, state.node(node), gpus);
    }

    private static void normalise(long[] scores, int count) {
        long highest = Long.MIN_VALUE;
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            highest = Math.max(highest, scores[i]);
            lowest = Math.min(lowest, scores[i]);
        }
        long range = highest - lowest;
        for (int i = 0; i < count; i++) {
            scores[i] = range == 0 ? 0 : (scores[i] - lowest) * MAX_SCORE / range;
        }
    }

    private int selectHighest(int[] nodes, long[] scores, int count) {
        if (ties == TieBreak.RANDOM) {
            // reservoir sampling: each of the k tied nodes is kept with probability 1/k
            int selected = nodes[0];
            long max = scores[0];
            int ties = 1;
            for (int i = 1; i < count; i++) {
                if (scores[i] > max) {
                    max = scores[i];
                    selected = nodes[i];
                    ties = 1;
                } else if (scores[i] == max && random.nextInt(++ties) == 0) {
                    selected = nodes[i];
                }
            }
            return selected;
        }
        int selected = nodes[0];
        long max = scores[0];
        for (int i = 1; i < count; i++) {
            if (scores[i] > max || (scores[i] == max && rank[nodes[i]] < rank[selected])) {
                max = scores[i];
                selected = nodes[i];
            }
        }
        return selected;
    }

    /** A uniformly random permutation: rank[node] is the node's place in the tie-break order. */
    private int[] randomRanks(int n) {
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = ranks[i];
            ranks[i] = ranks[j];
            ranks[j] = swap;
        }
        return ranks;
    }
}

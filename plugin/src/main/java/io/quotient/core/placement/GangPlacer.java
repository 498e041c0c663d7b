package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.placement.PlacementPolicy.NodeFilter;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Places a {@link GangDemand} all or nothing, one replica per node, in one decision: either every replica gets a
 * node and its GPUs, or nothing is booked and the outcome says what is missing. Pure: reads the state, never
 * allocates (the caller books the returned allocations together).
 *
 * <p>Because replicas go to distinct nodes, whether a node fits one replica does not depend on the other replicas:
 * the nodes that fit are counted once per GPU model (one pool for all models when the gang may mix them), and a
 * pool holds the gang exactly when it has enough fitting nodes. Among the pools that hold it the tightest is used,
 * so the larger pools stay whole for the next large gang; inside the pool each replica goes where the packing
 * policy would put a single job of that shape, so the gang's nodes are chosen for the least fragmentation.
 */
public final class GangPlacer {

    private static final String MIXED = "";

    private final PlacementPolicy policy;

    public GangPlacer(PlacementPolicy policy) {
        this.policy = policy;
    }

    public GangOutcome place(ClusterState state, GangDemand gang, NodeFilter filter) {
        Map<String, BitSet> pools = fittingNodesByPool(state, gang, filter);
        Optional<Map.Entry<String, BitSet>> tightestThatHolds = pools.entrySet().stream()
                .filter(pool -> pool.getValue().cardinality() >= gang.replicas())
                .min(Comparator.comparingInt(pool -> pool.getValue().cardinality()));
        if (tightestThatHolds.isPresent()) {
            return new GangOutcome.Placed(
                    placeIn(state, gang, tightestThatHolds.get().getValue(), gang.replicas()));
        }
        Optional<Map.Entry<String, BitSet>> largest = pools.entrySet().stream()
                .max(Comparator.comparingInt(pool -> pool.getValue().cardinality()));
        int available = largest.map(pool -> pool.getValue().cardinality()).orElse(0);
        if (available >= gang.minReplicas()) {
            return new GangOutcome.Placed(placeIn(state, gang, largest.get().getValue(), available));
        }
        return new GangOutcome.Waiting(new GangShortfall(
                gang.perReplica(),
                gang.minReplicas(),
                available,
                largest.map(Map.Entry::getKey).orElse(MIXED)));
    }

    /** Fitting nodes per GPU model (sorted by model, so ties between pools are broken the same way every time). */
    private static Map<String, BitSet> fittingNodesByPool(ClusterState state, GangDemand gang, NodeFilter filter) {
        Map<String, BitSet> pools = new TreeMap<>();
        for (int node = 0; node < state.nodeCount(); node++) {
            if (state.fits(node, gang.perReplica()) && filter.accepts(state, node)) {
                String pool = gang.mixedModels() ? MIXED : state.node(node).gpuModel();
                pools.computeIfAbsent(pool, model -> new BitSet()).set(node);
            }
        }
        return pools;
    }

    private List<Allocation> placeIn(ClusterState state, GangDemand gang, BitSet pool, int count) {
        BitSet chosen = new BitSet();
        List<Allocation> replicas = new ArrayList<>(count);
        NodeFilter inPoolAndFree = (s, node) -> pool.get(node) && !chosen.get(node);
        while (replicas.size() < count) {
            Allocation allocation = policy.place(state, gang.perReplica(), inPoolAndFree)
                    .orElseThrow(() -> new IllegalStateException("policy " + policy.name()
                            + " found no node for replica "
                            + replicas.size() + " of a gang although " + (pool.cardinality() - chosen.cardinality())
                            + " fitting nodes are left"));
            chosen.set(allocation.nodeIndex());
            replicas.add(allocation);
        }
        return replicas;
    }
}

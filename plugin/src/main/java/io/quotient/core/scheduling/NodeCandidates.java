package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.PlacedJob;
import java.util.List;

/**
 * A node's candidates for a reclaim search (cheapest first) with what each holds on the node ({@code held}, in the
 * same order), a lower bound on the cost of any eviction-only choice there, how much GPU capacity could be had there
 * at most, and what evictions and moves could free there at most against what the demand needs
 * ({@link ReclaimCandidates}).
 */
record NodeCandidates(
        int node, List<PlacedJob> jobs, List<Allocation> held, ReclaimCost bound, long potential, NodeReach reach) {}

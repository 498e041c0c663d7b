package io.quotient.core.scheduling;

import io.quotient.core.model.PlacedJob;
import java.util.List;

/**
 * A node's candidates for a reclaim search (cheapest first), a lower bound on the cost of any eviction-only choice
 * there, and how much GPU capacity could be had there at most ({@link ReclaimCandidates}).
 */
record NodeCandidates(int node, List<PlacedJob> jobs, ReclaimCost bound, long potential) {}

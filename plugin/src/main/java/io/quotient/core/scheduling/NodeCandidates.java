package io.quotient.core.scheduling;

import java.util.List;

/**
 * A node's candidates for a reclaim search (cheapest first), each with what it holds on the node, a lower bound on
 * the cost of any eviction-only choice there, how much GPU capacity could be had there at most, and what evictions
 * and moves could free there at most against what the demand needs ({@link ReclaimCandidates}).
 */
record NodeCandidates(int node, List<Workspace.Held> jobs, ReclaimCost bound, long potential, NodeReach reach) {}

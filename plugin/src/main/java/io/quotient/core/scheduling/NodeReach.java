package io.quotient.core.scheduling;

import java.util.List;

/**
 * How much GPU a reclaim search could free at most on one node, and against what the demand needs there: the cheap
 * bounds by which the search passes over a node (or a whole phase) that cannot be made to fit, with the same outcome
 * as searching it.
 *
 * @param needed           the GPU milli the demand takes on the node in all (0: it asks no GPU)
 * @param free             the GPU milli free there now
 * @param evictable        the most evictions could free there: the claimant team's evictable candidates, and each
 *                         other team's up to its allowance (a gang's whole size counts against it)
 * @param movable          what the candidates that may move hold there and take as much of elsewhere (whole GPUs and
 *                         fractions)
 * @param movableByMemory  what the candidates that may move and ask GPU memory hold there: on a GPU with more memory
 *                         they take less, so what they free here is not bounded by what is free elsewhere
 * @param victimsElsewhere what the evictable gang candidates hold on their other nodes: evicting one frees that too,
 *                         and a job moved away may land there
 */
record NodeReach(long needed, long free, long evictable, long movable, long movableByMemory, long victimsElsewhere) {

    /** A node where the demand fits as it is. */
    static final NodeReach FITS = new NodeReach(0, 0, 0, 0, 0, 0);

    /** Whether evictions alone could free enough GPU there. */
    boolean byEvictions() {
        return free + evictable >= needed;
    }

    /**
     * Whether evictions and moves could free enough GPU there, when the other nodes have {@code freeElsewhere} GPU milli
     * free: a move takes what it frees to the free GPUs of other nodes, so moves free at most that much.
     */
    boolean withMoves(long freeElsewhere) {
        return free + evictable + movableByMemory + Math.min(movable, freeElsewhere + victimsElsewhere) >= needed;
    }

    /** Whether evictions and moves could make the demand fit on any of the nodes ({@link #withMoves}). */
    static boolean anyWithMoves(List<NodeCandidates> nodes, long totalFree) {
        for (NodeCandidates c : nodes) {
            if (c.reach().withMoves(totalFree - c.reach().free())) {
                return true;
            }
        }
        return false;
    }
}

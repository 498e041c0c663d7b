package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.PlacementPolicy.NodeFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Frees one node for a gang's replica when neither evictions nor moves onto free GPUs do it alone: on a full cluster
 * every node may hold a job its rights may not evict (of a team within its guarantee, or of the claimant's own team)
 * beside borrowed ones, and no GPU is free to move it to. Then the jobs the rights may not evict are moved onto GPUs
 * freed for them on other nodes by evicting jobs the rights do allow (borrowed ones, within the same allowances), and
 * what is left on the node is evicted or moved as {@link ReclaimSearch} chooses. The borrowers lose what they would
 * lose if the node were theirs alone; the protected jobs keep running elsewhere (a move restarts them from their last
 * checkpoint). Only preemptible single-node jobs past their minimum runtime are moved, at most
 * {@code maxMoves} per node, never onto a node already freed for another replica (unless it keeps a replica's room).
 *
 * <p>The nodes tried are those needing the fewest GPUs moved (at most {@link #CANDIDATES}); the one whose steps cost
 * least ({@link ReclaimCost}) wins. Everything is tried on the workspace and undone: the steps are returned, not
 * applied.
 */
final class GangRelocation {

    /** Nodes tried per replica: each trial searches destinations over the cluster for every job it moves. */
    static final int CANDIDATES = 4;

    private final Workspace ws;
    private final ReclaimSearch search;
    private final Instant now;
    private final int maxMoves;
    private final Function<PlacedJob, NodeFilter> moveTargets;

    GangRelocation(
            Workspace ws,
            ReclaimSearch search,
            Instant now,
            int maxMoves,
            Function<PlacedJob, NodeFilter> moveTargets) {
        this.ws = ws;
        this.search = search;
        this.now = now;
        this.maxMoves = maxMoves;
        this.moveTargets = moveTargets;
    }

    /** A node to free and the GPU milli of the jobs that must move off it. */
    private record Candidate(int node, long mustMove, int moves) {}

    /** A node's steps, applied in order, and what they cost. */
    private record Trial(List<GangStep> steps, ReclaimCost cost) {}

    /**
     * The cheapest steps that make one node {@code pool} accepts hold {@code perReplica}, leaving the nodes
     * {@code reserved} accepts (freed for other replicas) with a replica's room; empty when none does. Nothing is
     * applied.
     */
    List<GangStep> freeOne(ResourceDemand perReplica, NodeFilter pool, NodeFilter reserved, GangAllowance allowance) {
        if (maxMoves == 0 || !allowance.granted().evictions()) {
            return List.of();
        }
        Trial best = null;
        for (Candidate c : candidates(perReplica, pool, reserved, allowance)) {
            Trial trial = tryNode(c.node(), perReplica, reserved, allowance.copy());
            if (trial != null) {
                undo(trial.steps());
                if (best == null || trial.cost().compareTo(best.cost()) < 0) {
                    best = trial;
                }
            }
        }
        return best == null ? List.of() : best.steps();
    }

    /**
     * The nodes worth a trial: every job on them may be evicted or moved, at least one must move (otherwise the
     * reclaim search alone frees the node), at most {@code maxMoves} must, fewest GPUs to move first.
     */
    private List<Candidate> candidates(
            ResourceDemand perReplica, NodeFilter pool, NodeFilter reserved, GangAllowance allowance) {
        ClusterState state = ws.state();
        List<Candidate> candidates = new ArrayList<>();
        for (int n = 0; n < state.nodeCount(); n++) {
            if (!pool.accepts(state, n)
                    || reserved.accepts(state, n)
                    || !WaitReasons.couldEverHold(state.node(n), perReplica)) {
                continue;
            }
            List<PlacedJob> jobs = ws.jobsOn(n);
            long mustMove = 0;
            int moves = 0;
            boolean blocked = false;
            for (PlacedJob j : jobs) {
                boolean evictable = allowance.mayEvict(j);
                if (!search.movableOrEvictable(j) || (j.spec().gang().spansNodes() && !evictable)) {
                    blocked = true;
                    break;
                }
                if (!evictable) {
                    mustMove += j.gpuMilli();
                    moves++;
                }
            }
            if (!blocked && moves > 0 && moves <= maxMoves && NodeRoom.fitsWithout(ws, n, jobs, perReplica)) {
                candidates.add(new Candidate(n, mustMove, moves));
            }
        }
        candidates.sort(Comparator.comparingLong(Candidate::mustMove)
                .thenComparingInt(Candidate::moves)
                .thenComparingInt(Candidate::node));
        return candidates.subList(0, Math.min(CANDIDATES, candidates.size()));
    }

    /** Frees the node, leaving its steps applied; null (nothing applied) when it cannot be freed. */
    private Trial tryNode(int node, ResourceDemand perReplica, NodeFilter reserved, GangAllowance allowance) {
        List<GangStep> steps = new ArrayList<>();
        ReclaimCost cost = ReclaimCost.NONE;
        List<PlacedJob> mustMove = ws.jobsOn(node).stream()
                .filter(j -> !allowance.mayEvict(j))
                .sorted(Comparator.comparingLong(PlacedJob::gpuMilli).reversed().thenComparing(j -> j.id().toString()))
                .toList();
        for (PlacedJob job : mustMove) {
            NodeFilter elsewhere = destinations(job, node, reserved);
            Optional<Allocation> to = destination(job, node, elsewhere);
            if (to.isEmpty()) {
                // free GPUs for it by evicting borrowed jobs elsewhere; moves there would only shift the problem
                ReclaimRights evictOnly = withoutMoves(allowance.remaining(0, 0));
                Optional<ReclaimSearch.Choice> room = search.best(Demands.of(job.spec()), elsewhere, evictOnly);
                if (room.isEmpty() || room.get().evictions().isEmpty()) {
                    undo(steps);
                    return null;
                }
                cost = evict(room.get().evictions(), steps, allowance, cost);
                to = destination(job, node, elsewhere);
                if (to.isEmpty()) {
                    undo(steps);
                    return null;
                }
            }
            steps.add(apply(GangStep.move(ws, job, to.get(), now)));
            cost = cost.move();
        }
        if (!ws.state().fits(node, perReplica)) {
            Optional<ReclaimSearch.Choice> rest =
                    search.best(perReplica, (s, n) -> n == node, allowance.remaining(0, 0), reserved, perReplica);
            if (rest.isEmpty()) {
                undo(steps);
                return null;
            }
            for (ReclaimSearch.Move m : rest.get().moves()) {
                steps.add(apply(GangStep.move(ws, m.job(), m.to(), now)));
                cost = cost.move();
            }
            cost = evict(rest.get().evictions(), steps, allowance, cost);
        }
        if (!ws.state().fits(node, perReplica)) {
            undo(steps);
            return null;
        }
        return new Trial(steps, cost);
    }

    /**
     * The nodes a job moved off {@code node} may go to: not that node, not a node freed for another replica unless
     * it keeps a replica's room, where the job may run and counts no more GPU milli than now.
     */
    private NodeFilter destinations(PlacedJob job, int node, NodeFilter reserved) {
        NodeFilter targets = moveTargets.apply(job);
        NodeFilter quota = ws.countsNoMore(job);
        return (s, n) -> n != node && !reserved.accepts(s, n) && targets.accepts(s, n) && quota.accepts(s, n);
    }

    private Optional<Allocation> destination(PlacedJob job, int node, NodeFilter elsewhere) {
        return Destinations.bestFit(ws.state(), Demands.of(job.spec()), node, elsewhere, null);
    }

    /** Evicts the victims (applied, added to the steps, counted against the allowances); returns the cost grown. */
    private ReclaimCost evict(
            List<PlacedJob> victims, List<GangStep> steps, GangAllowance allowance, ReclaimCost cost) {
        ReclaimCost grown = cost;
        for (PlacedJob victim : victims) {
            steps.add(apply(GangStep.eviction(victim, ws.allocations(victim.id()))));
            allowance.taken(victim);
            grown = grown.evict(victim.spec().priority(), search.work(victim), victim.gpuMilli());
        }
        return grown;
    }

    private GangStep apply(GangStep step) {
        step.apply(ws);
        return step;
    }

    private void undo(List<GangStep> steps) {
        for (int i = steps.size() - 1; i >= 0; i--) {
            steps.get(i).undo(ws);
        }
    }

    private static ReclaimRights withoutMoves(ReclaimRights r) {
        return new ReclaimRights(
                r.rule(),
                r.teamAllowance(),
                r.departments(),
                r.claimantTeam(),
                r.ownEvictable(),
                r.ownMustFree(),
                true,
                false);
    }
}

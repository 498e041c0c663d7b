package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which jobs on a node a reclaim search may evict or move, cheapest first, with a lower bound on what any
 * eviction-only choice there costs: the search ({@link ReclaimSearch}) visits nodes by that bound and branches over
 * these jobs only.
 */
final class ReclaimCandidates {

    /** Work counts at least a second's worth, so that a job that has just started is not free to evict. */
    private static final long MIN_WORK_MILLIS = 1000;

    private final Workspace ws;
    private final Instant now;
    private final boolean movesAllowed;
    private final Set<JobId> placedThisRound;
    private final VictimStanding standing;
    private TakeableJobs takeable;
    private long takeableAt;

    /**
     * @param movesAllowed    whether the configuration allows moves at all (else only evictable jobs are candidates)
     * @param placedThisRound jobs the same plan places (read live): never evicted or moved by it
     * @param standing        where each victim's team stands (which teams lose first)
     */
    ReclaimCandidates(
            Workspace ws, Instant now, boolean movesAllowed, Set<JobId> placedThisRound, VictimStanding standing) {
        this.ws = ws;
        this.now = now;
        this.movesAllowed = movesAllowed;
        this.placedThisRound = placedThisRound;
        this.standing = standing;
    }

    /**
     * The node's candidates; null when even taking every candidate would not make room.
     *
     * @param mostFree the most GPU milli free on any node: a job larger than that has nowhere to move
     */
    NodeCandidates on(int node, ResourceDemand demand, ReclaimRights rights, long mostFree) {
        ClusterState state = ws.state();
        NodeCandidates asIs = asIs(node, demand, rights);
        if (asIs != null) {
            return asIs;
        }
        boolean mayMove = rights.moves() && movesAllowed;
        List<PlacedJob> jobs = new ArrayList<>();
        int lowestPriority = Integer.MAX_VALUE;
        int lowestTeamPriority = Integer.MAX_VALUE;
        long leastBelowShare = Long.MAX_VALUE;
        long shortestRun = Long.MAX_VALUE;
        for (PlacedJob j : takeable().on(node)) {
            boolean evict = rights.mayEvict(j) && !ws.ledger().keptInGroup(j, rights.claimantTeam());
            boolean movable = mayMove && !j.spec().gang().spansNodes() && j.gpuMilli() <= mostFree;
            if (evict || movable) {
                jobs.add(j);
                if (evict) {
                    lowestPriority = Math.min(lowestPriority, j.spec().priority());
                    lowestTeamPriority = Math.min(lowestTeamPriority, standing.teamPriority(j, rights.claimantTeam()));
                    leastBelowShare =
                            Math.min(leastBelowShare, standing.endsBelowShare(j, rights.claimantTeam(), j.gpuMilli()));
                    shortestRun = Math.min(shortestRun, work(j) / Math.max(1, j.gpuMilli()));
                }
            }
        }
        if (jobs.isEmpty()) {
            return null;
        }
        if (!NodeRoom.fitsWithout(ws, node, jobs, demand)) {
            return null;
        }
        // the takeable jobs are in the search's order already (cheapest first): a filtered list keeps it
        long mustFree = NodeRoom.mustFree(state, node, demand);
        // a choice evicts at least one candidate: no component can be below the least any single candidate brings
        ReclaimCost bound = lowestPriority == Integer.MAX_VALUE
                ? new ReclaimCost(Integer.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, 0, 0, 0, 0)
                : new ReclaimCost(
                        lowestTeamPriority, leastBelowShare, lowestPriority, mustFree * shortestRun, mustFree, 0, 1);
        long potential = state.gpuFreeOnNode(node)
                + jobs.stream().mapToLong(PlacedJob::gpuMilli).sum();
        return new NodeCandidates(node, jobs, bound, potential);
    }

    /**
     * The node as it is, when the demand fits there already and the rights ask nothing freed first: the one choice
     * there that takes nothing; null otherwise. What {@link #on} answers for a node of a search that
     * {@link #nothingToTake} ruled out, since the node has no candidates then.
     */
    NodeCandidates asIs(int node, ResourceDemand demand, ReclaimRights rights) {
        if (ws.state().fits(node, demand)
                && rights.ownMustFree() == 0
                && rights.departments().ownDepartmentOverMax() == 0) {
            return new NodeCandidates(node, List.of(), ReclaimCost.NONE, Long.MAX_VALUE);
        }
        return null;
    }

    /**
     * Whether no node has a candidate under the rights, or the only candidates are moves that cannot make room: then
     * a search finds no choice but a node as it is ({@link #asIs}). Nothing is evictable when none of the claimant's
     * own takeable jobs passes its test and every other team's allowance is below its smallest takeable job (the
     * rights' department limits and a group's kept jobs only refuse more); nothing is movable when the smallest
     * takeable job is larger than the most free on a node; and moves alone cannot fit a GPU demand larger than what
     * the cluster has free when each move leaves the free GPU milli no larger ({@link TakeableJobs#movesKeepFreeGpus}).
     *
     * @param mostFree  the most GPU milli free on any node
     * @param totalFree the GPU milli free over the cluster
     */
    boolean nothingToTake(ReclaimRights rights, ResourceDemand demand, long mostFree, long totalFree) {
        TakeableJobs takeable = takeable();
        String claimant = rights.claimantTeam();
        if (rights.evictions()) {
            for (PlacedJob j : takeable.ofTeam(claimant)) {
                if (rights.ownEvictable().test(j) && !ws.ledger().keptInGroup(j, claimant)) {
                    return false;
                }
            }
            for (Map.Entry<String, Long> team : takeable.smallestOfTeam().entrySet()) {
                if (!team.getKey().equals(claimant)
                        && rights.teamAllowance().getOrDefault(team.getKey(), 0L) >= team.getValue()) {
                    return false;
                }
            }
        }
        if (!rights.moves() || !movesAllowed || takeable.smallestMovable() > mostFree) {
            return true;
        }
        return takeable.movesKeepFreeGpus()
                && demand.needsGpu()
                && demand.gpuMemoryMib() == 0
                && totalFree < (long) demand.gpuCount() * demand.gpuMilli();
    }

    /** The takeable jobs of the workspace as booked now, worked out again once it books or frees a job. */
    private TakeableJobs takeable() {
        if (takeable == null || takeableAt != ws.bookings()) {
            takeable = new TakeableJobs(ws, this, this::work);
            takeableAt = ws.bookings();
        }
        return takeable;
    }

    /**
     * Preemptible, past its minimum runtime and not placed by this plan: the only jobs a reclaim may evict or move.
     */
    boolean movableOrEvictable(PlacedJob job) {
        return job.spec().preemptible() && !now.isBefore(job.protectedUntil()) && !placedThisRound.contains(job.id());
    }

    /**
     * What a restart repeats, in milli-GPU × milliseconds run: among equal jobs the newest loses least (as Kueue and
     * KAI evict the most recently started first).
     */
    long work(PlacedJob job) {
        long millis =
                Math.max(MIN_WORK_MILLIS, Duration.between(job.startedAt(), now).toMillis());
        return Math.max(1, job.gpuMilli()) * millis;
    }
}

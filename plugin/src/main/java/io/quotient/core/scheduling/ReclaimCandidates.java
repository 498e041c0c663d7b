package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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

    /**
     * @param movesAllowed    whether the configuration allows moves at all (else only evictable jobs are candidates)
     * @param placedThisRound jobs the same plan places (read live): never evicted or moved by it
     */
    ReclaimCandidates(Workspace ws, Instant now, boolean movesAllowed, Set<JobId> placedThisRound) {
        this.ws = ws;
        this.now = now;
        this.movesAllowed = movesAllowed;
        this.placedThisRound = placedThisRound;
    }

    /**
     * The node's candidates; null when the filter refuses the node, the demand could never fit it, or even taking
     * every candidate would not make room.
     *
     * @param mostFree   the most GPU milli free on any node: a job larger than that has nowhere to move
     * @param teams      what the rights may take of each team and where each stands, by team index
     * @param filter     the nodes the search may use, asked only of a node that may offer something: it reads the
     *                   ledger, and on a full cluster most nodes offer nothing
     */
    NodeCandidates on(
            int node,
            ResourceDemand demand,
            ReclaimRights rights,
            long mostFree,
            SearchTeams teams,
            PlacementPolicy.NodeFilter filter) {
        ClusterState state = ws.state();
        boolean fits = state.fits(node, demand)
                && rights.ownMustFree() == 0
                && rights.departments().ownDepartmentOverMax() == 0;
        boolean mayMove = rights.moves() && movesAllowed;
        // the cheap test first: on a full cluster it rules out most nodes, and the filter reads the ledger
        if (!fits && !ws.reclaimable().mayHoldCandidate(node, teams.allowances(), mayMove, mostFree)) {
            // no job there that the rights let go or that could move: the loop below would find none
            return null;
        }
        if (!filter.accepts(state, node) || !WaitReasons.couldEverHold(state.node(node), demand)) {
            return null;
        }
        if (fits) {
            return new NodeCandidates(node, List.of(), ReclaimCost.NONE, Long.MAX_VALUE, NodeReach.FITS);
        }
        List<Workspace.Held> found = new ArrayList<>();
        int lowestPriority = Integer.MAX_VALUE;
        int lowestTeamPriority = Integer.MAX_VALUE;
        long leastBelowShare = Long.MAX_VALUE;
        long shortestRun = Long.MAX_VALUE;
        Reach reach = new Reach(rights);
        for (Workspace.Held held : ws.heldOnNow(node)) {
            PlacedJob j = held.job();
            boolean evict = teams.mayEvict(held) && !ws.ledger().keptInGroup(j, rights.claimantTeam());
            boolean movable = mayMove && !j.spec().gang().spansNodes() && j.gpuMilli() <= mostFree;
            // the cheap tests first: on a full cluster most jobs are neither evictable under the rights nor movable
            if ((evict || movable) && held.here() != null && movableOrEvictable(j)) {
                found.add(held);
                reach.add(j, held.here(), evict, movable);
                if (evict) {
                    lowestPriority = Math.min(lowestPriority, j.spec().priority());
                    lowestTeamPriority = Math.min(lowestTeamPriority, teams.teamPriority(held));
                    leastBelowShare = Math.min(leastBelowShare, teams.endsBelowShare(held, j.gpuMilli()));
                    shortestRun = Math.min(shortestRun, work(j) / Math.max(1, j.gpuMilli()));
                }
            }
        }
        if (found.isEmpty()) {
            return null;
        }
        if (!NodeRoom.fitsWithout(state, node, found, demand)) {
            return null;
        }
        found.sort((a, b) -> cheapestFirst(a.job(), b.job()));
        long mustFree = NodeRoom.mustFree(state, node, demand);
        // a choice evicts at least one candidate: no component can be below the least any single candidate brings
        ReclaimCost bound = lowestPriority == Integer.MAX_VALUE
                ? new ReclaimCost(Integer.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, 0, 0, 0, 0)
                : new ReclaimCost(
                        lowestTeamPriority, leastBelowShare, lowestPriority, mustFree * shortestRun, mustFree, 0, 1);
        long free = state.gpuFreeOnNode(node);
        long potential = free;
        for (Workspace.Held h : found) {
            potential += h.job().gpuMilli();
        }
        // what the demand needs here, against which the search weighs what evictions and moves could free
        long needed = demand.needsGpu() ? demand.totalMilliOn(state.node(node)) : 0;
        return new NodeCandidates(node, found, bound, potential, reach.of(needed, free));
    }

    /**
     * The order a node's candidates are tried in: lowest priority, least work lost, most recently started, then by
     * name. Written out, not chained: every search sorts every node's candidates.
     */
    private int cheapestFirst(PlacedJob a, PlacedJob b) {
        int c = Integer.compare(a.spec().priority(), b.spec().priority());
        if (c == 0) {
            c = Long.compare(work(a), work(b));
        }
        if (c == 0) {
            c = b.startedAt().compareTo(a.startedAt());
        }
        return c != 0 ? c : JobNames.compare(a.id(), b.id());
    }

    /** Sums a node's candidates into its {@link NodeReach}. */
    private static final class Reach {
        private final ReclaimRights rights;
        private final Map<String, Long> others = new HashMap<>(4);
        private long own;
        private long movable;
        private long movableByMemory;
        private long victimsElsewhere;

        Reach(ReclaimRights rights) {
            this.rights = rights;
        }

        void add(PlacedJob job, Allocation here, boolean evictable, boolean mayMove) {
            long milli = here.totalGpuMilli();
            if (mayMove && job.spec().gpu() instanceof GpuRequest.Memory) {
                movableByMemory += milli;
            } else if (mayMove) {
                movable += milli;
            }
            if (!evictable) {
                return;
            }
            victimsElsewhere += job.gpuMilli() - milli;
            String team = job.spec().team();
            if (team.equals(rights.claimantTeam())) {
                own += milli;
            } else {
                others.merge(team, milli, Long::sum);
            }
        }

        NodeReach of(long needed, long free) {
            long evictable = own;
            for (Map.Entry<String, Long> e : others.entrySet()) {
                evictable += Math.min(e.getValue(), rights.teamAllowance().getOrDefault(e.getKey(), 0L));
            }
            return new NodeReach(needed, free, evictable, movable, movableByMemory, victimsElsewhere);
        }
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
        return Math.max(1, job.gpuMilli()) * Math.max(MIN_WORK_MILLIS, millisRun(job.startedAt()));
    }

    /**
     * {@code Duration.between(startedAt, now).toMillis()} wherever it is not negative (any negative value is clamped
     * the same), from the seconds and nanoseconds: a search orders every node's candidates by their work, and the
     * duration built for each comparison was a measurable part of it.
     */
    private long millisRun(Instant startedAt) {
        long seconds = now.getEpochSecond() - startedAt.getEpochSecond();
        int nanos = now.getNano() - startedAt.getNano();
        if (nanos < 0) {
            seconds--;
            nanos += 1_000_000_000;
        }
        return seconds < 0 ? -1 : Math.addExact(Math.multiplyExact(seconds, 1000), nanos / 1_000_000);
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Department;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds, on one node, the cheapest set of evictions and moves after which a demand fits there, and the best such
 * node. Cheapest means, in this order: the highest team priority among the other teams that lose jobs is lowest (a
 * higher-priority team's borrowed jobs go last, as KAI-Scheduler reclaims from the lower-priority queue first); the
 * deepest any such team ends below its fair share is least (teams furthest above their share lose first, as KAI and
 * Kueue's fair sharing take from the queue furthest above its share); the highest priority evicted is lowest; the
 * least GPU-work is lost (GPU milli × time run); the fewest GPUs are evicted, the fewest jobs move, the fewest jobs
 * are evicted. A move keeps its job running elsewhere, so moves are preferred to evictions. The claimant team's own
 * jobs have no team standing ({@link VictimStanding}): a plan that frees only them comes before one that takes from
 * another team.
 *
 * <p>Per node an exact branch-and-bound over the node's candidates ({@link ReclaimCandidates}: move, evict or keep
 * each) with a step budget; nodes are visited by a lower bound on what must be evicted there and skipped once the
 * bound cannot beat the best found. Nothing that could not fit is searched ({@link NodeReach}): a node whose
 * evictions cannot free the demand's GPUs, a branch whose remaining candidates cannot make the demand fit, the search
 * with moves when no node could be made to fit with them; each such cut leaves the choice as it was (a search with
 * moves keeps its branches, since the destination lookups it spends there would otherwise go to later nodes).
 * Everything is tried on the workspace's cluster state and undone: the search changes nothing.
 */
final class ReclaimSearch {

    /** A job moved to a new allocation on another node. */
    record Move(PlacedJob job, Allocation to) {}

    /** What to do on a node so that the demand fits there. */
    record Choice(int node, List<PlacedJob> evictions, List<Move> moves, ReclaimCost cost) {}

    private static final int STEPS_PER_NODE = 4_000;
    /** Nodes searched with moves: moves need a destination search over the cluster, so only the most promising. */
    private static final int NODES_WITH_MOVES = 8;
    /** Destination searches per decision: each scans the cluster, and moves are the expensive half of a search. */
    private static final int DESTINATION_LOOKUPS = 64;

    private final Workspace ws;
    private final int maxMoves;
    private final Function<PlacedJob, PlacementPolicy.NodeFilter> moveTargets;
    private final VictimStanding standing;
    private final ReclaimCandidates candidates;
    private int lookupsLeft;
    /** Nodes with free GPU capacity when the current search began. */
    private int[] destinations;
    /** Per node, whether a move there must leave room for {@link #reserve} (see {@link #best}). */
    private boolean[] kept;

    private ResourceDemand reserve;

    /**
     * @param moveTargets     per job, which nodes may receive it (fractions need nodes ready for shared GPUs)
     * @param placedThisRound jobs the same plan places (read live): never evicted or moved by it, since the plan
     *                        would create their workload only to stop it at once
     * @param standing        where each victim's team stands (which teams lose first)
     */
    ReclaimSearch(
            Workspace ws,
            Instant now,
            int maxMoves,
            Function<PlacedJob, PlacementPolicy.NodeFilter> moveTargets,
            Set<JobId> placedThisRound,
            VictimStanding standing) {
        this.ws = ws;
        this.maxMoves = maxMoves;
        this.moveTargets = moveTargets;
        this.standing = standing;
        this.candidates = new ReclaimCandidates(ws, now, maxMoves > 0, placedThisRound);
    }

    /** The best choice over the nodes the filter accepts, or empty when no node can be made to fit. */
    Optional<Choice> best(ResourceDemand demand, PlacementPolicy.NodeFilter filter, ReclaimRights rights) {
        return best(demand, filter, rights, (s, n) -> false, demand);
    }

    /**
     * The best choice over the nodes the filter accepts, or empty when no node can be made to fit; a job moved to a
     * node {@code keep} accepts when the search begins must leave room there for {@code reserve} (a gang's replica
     * needs each node freed for it by an earlier search).
     */
    Optional<Choice> best(
            ResourceDemand demand,
            PlacementPolicy.NodeFilter filter,
            ReclaimRights rights,
            PlacementPolicy.NodeFilter keep,
            ResourceDemand reserve) {
        ClusterState state = ws.state();
        long mostFree = 0;
        long totalFree = 0;
        int[] withFreeGpus = new int[state.nodeCount()];
        int withFree = 0;
        for (int n = 0; n < state.nodeCount(); n++) {
            long free = state.gpuFreeOnNode(n);
            mostFree = Math.max(mostFree, free);
            totalFree += free;
            if (free > 0) {
                withFreeGpus[withFree++] = n;
            }
        }
        List<NodeCandidates> nodes = new ArrayList<>();
        SearchTeams teams = new SearchTeams(ws, rights, standing);
        for (int n = 0; n < state.nodeCount(); n++) {
            NodeCandidates c = candidates.on(n, demand, rights, mostFree, teams, filter);
            if (c != null) {
                nodes.add(c);
            }
        }
        if (nodes.isEmpty()) {
            return Optional.empty();
        }
        // a search frees capacity only on the node it searches, never a destination: these are all the GPU ones
        destinations = Arrays.copyOf(withFreeGpus, withFree);
        lookupsLeft = DESTINATION_LOOKUPS;
        kept = new boolean[state.nodeCount()];
        for (int n = 0; n < kept.length; n++) {
            kept[n] = keep.accepts(state, n);
        }
        this.reserve = reserve;
        Choice best = null;
        if (rights.evictions()) {
            nodes.sort(Comparator.comparing(NodeCandidates::bound));
            for (NodeCandidates c : nodes) {
                if (c.bound().maxPriority() == Integer.MAX_VALUE
                        || (best != null && c.bound().compareTo(best.cost()) >= 0)) {
                    break;
                }
                if (!c.reach().byEvictions()) {
                    continue; // no eviction there frees enough: the search would find nothing
                }
                best = better(best, new NodeSearch(c, demand, rights, teams, false, best).run());
            }
        }
        if (rights.moves() && maxMoves > 0 && (best == null || best.cost().evictions() > 0)) {
            nodes.sort(Comparator.comparingLong(NodeCandidates::potential)
                    .reversed()
                    .thenComparingInt(NodeCandidates::node));
            List<NodeCandidates> withMoves = nodes.subList(0, Math.min(NODES_WITH_MOVES, nodes.size()));
            // a node that moves cannot make fit finds nothing; the phase is passed over only when every node is such,
            // since a node searched spends destination lookups that the nodes after it then lack
            if (NodeReach.anyWithMoves(withMoves, totalFree)) {
                for (NodeCandidates c : withMoves) {
                    best = better(best, new NodeSearch(c, demand, rights, teams, true, best).run());
                }
            }
        }
        return Optional.ofNullable(best);
    }

    private static Choice better(Choice a, Choice b) {
        if (b == null) {
            return a;
        }
        return a == null || b.cost().compareTo(a.cost()) < 0 ? b : a;
    }

    /** Preemptible, past its minimum runtime and not placed by this plan ({@link ReclaimCandidates#movableOrEvictable}). */
    boolean movableOrEvictable(PlacedJob job) {
        return candidates.movableOrEvictable(job);
    }

    /** What a restart repeats ({@link ReclaimCandidates#work}). */
    long work(PlacedJob job) {
        return candidates.work(job);
    }

    /** Branch and bound over one node's candidates. */
    private final class NodeSearch {
        private final NodeCandidates node;
        private final ResourceDemand demand;
        private final ReclaimRights rights;
        private final SearchTeams teams;
        private final boolean withMoves;
        /** Per team index, the GPU milli this branch took of the team (its own team's excepted). */
        private final long[] teamTaken;
        /** Jobs found no destination while nothing had moved: other nodes are unchanged then, so none is found again. */
        private final Set<JobId> noDestination = new HashSet<>();

        private final Map<String, Long> departmentTaken = new HashMap<>();
        private final List<PlacedJob> evicted = new ArrayList<>();
        private final List<Move> moved = new ArrayList<>();
        private final String claimantDepartment;
        private long ownFreed;
        private int steps;
        private Choice best;
        private final Choice bound;
        /** What the remaining candidates could free, in a search without moves (null with moves: no cut there). */
        private final CandidatesLeft left;

        NodeSearch(
                NodeCandidates node,
                ResourceDemand demand,
                ReclaimRights rights,
                SearchTeams teams,
                boolean withMoves,
                Choice bound) {
            this.node = node;
            this.demand = demand;
            this.rights = rights;
            this.teams = teams;
            this.teamTaken = new long[teams.count()];
            this.withMoves = withMoves;
            this.bound = bound;
            Department d = ws.ledger().team(rights.claimantTeam()).department();
            this.claimantDepartment = d == null ? null : d.name();
            this.left = withMoves ? null : new CandidatesLeft(ws, node, demand);
        }

        Choice run() {
            search(0, ReclaimCost.NONE);
            return best;
        }

        private void search(int index, ReclaimCost cost) {
            if (++steps > STEPS_PER_NODE || beaten(cost)) {
                return;
            }
            if (ownFreed >= rights.ownMustFree()
                    && ownDepartmentFreedEnough()
                    && ownDepartmentWithinMax()
                    && ws.state().fits(node.node(), demand)) {
                best = new Choice(node.node(), List.copyOf(evicted), List.copyOf(moved), cost);
                return; // anything more costs more
            }
            // the cut only where nothing moves: a search with moves spends a budget of destination lookups in
            // branches that find nothing, and cutting them would leave more of it for later nodes, so the same
            // snapshot would get another plan than before
            if (index == node.jobs().size() || (left != null && left.outOfReach(ws.state(), index))) {
                return;
            }
            Workspace.Held candidate = node.jobs().get(index);
            PlacedJob job = candidate.job();
            Allocation held = candidate.here();
            if (withMoves && moved.size() < maxMoves && !job.spec().gang().spansNodes()) {
                tryMove(index, cost, job, held);
            }
            if (mayTake(candidate)) {
                take(candidate, 1);
                long belowShare = teams.endsBelowShare(candidate, teamTaken[candidate.team()]);
                search(
                        index + 1,
                        cost.evict(
                                teams.teamPriority(candidate),
                                belowShare,
                                job.spec().priority(),
                                work(job),
                                job.gpuMilli()));
                take(candidate, -1);
            }
            search(index + 1, cost);
        }

        private void tryMove(int index, ReclaimCost cost, PlacedJob job, Allocation held) {
            // the budget first: once spent, most branches would only look the job up in vain
            boolean otherNodes = lookupsLeft > 0 && !(moved.isEmpty() && noDestination.contains(job.id()));
            // a fraction may also make room on its own node, joining another fraction there on a shared GPU
            boolean ownNode = Destinations.mayJoinSharedGpu(held);
            if (!otherNodes && !ownNode) {
                return;
            }
            ClusterState state = ws.state();
            state.release(held);
            ResourceDemand moving = Demands.of(job.spec());
            PlacementPolicy.NodeFilter targets = moveTargets.apply(job);
            PlacementPolicy.NodeFilter quota = ws.countsNoMore(job);
            if (otherNodes) {
                lookupsLeft--;
                Optional<Allocation> to = Destinations.bestFit(
                        state,
                        moving,
                        node.node(),
                        (s, n) -> (!kept[n] || Destinations.leavesRoom(s, n, moving, reserve))
                                && targets.accepts(s, n)
                                && quota.accepts(s, n),
                        moving.needsGpu() ? destinations : null);
                if (to.isEmpty() && moved.isEmpty()) {
                    noDestination.add(job.id());
                }
                to.ifPresent(destination -> searchWithMove(index, cost, job, destination));
            }
            if (ownNode && targets.accepts(state, node.node()) && quota.accepts(state, node.node())) {
                Destinations.sharedGpuOnNode(state, node.node(), moving, held, freedByEvictions())
                        .ifPresent(within -> searchWithMove(index, cost, job, within));
            }
            state.allocate(held);
        }

        /** Per GPU of the node searched, the units (GpuUnits) this search's evictions so far freed there. */
        private long[] freedByEvictions() {
            ClusterState state = ws.state();
            long[] freed = new long[state.gpuCount(node.node())];
            for (PlacedJob victim : evicted) {
                ws.allocationOn(victim.id(), node.node()).ifPresent(a -> {
                    long units = a.unitsPerGpu(state.node(node.node()));
                    for (int g : a.gpuIndices()) {
                        freed[g] += units;
                    }
                });
            }
            return freed;
        }

        /** Searches on with the job moved to {@code to} (its allocation here already released), then undoes it. */
        private void searchWithMove(int index, ReclaimCost cost, PlacedJob job, Allocation to) {
            ClusterState state = ws.state();
            state.allocate(to);
            moved.add(new Move(job, to));
            search(index + 1, cost.move());
            moved.remove(moved.size() - 1);
            state.release(to);
        }

        private boolean beaten(ReclaimCost cost) {
            return (best != null && cost.compareTo(best.cost()) >= 0)
                    || (bound != null && cost.compareTo(bound.cost()) >= 0);
        }

        private boolean mayTake(Workspace.Held candidate) {
            PlacedJob job = candidate.job();
            if (!teams.mayEvict(candidate) || ws.ledger().keptInGroup(job, rights.claimantTeam())) {
                return false;
            }
            int team = candidate.team();
            if (teams.isClaimant(team)) {
                return true;
            }
            if (teamTaken[team] + job.gpuMilli() > teams.allowance(team)) {
                return false;
            }
            String d = teams.department(team);
            if (d == null || d.equals(claimantDepartment)) {
                return true;
            }
            return departmentTaken.getOrDefault(d, 0L) + job.gpuMilli()
                    <= rights.departments().allowance().getOrDefault(d, 0L);
        }

        /**
         * Whether the plan so far may keep what it took from other departments: only when the claimant's department
         * freed inside itself what brings it back to its level ({@link DepartmentLimits#ownDepartmentMustFree()}).
         */
        private boolean ownDepartmentFreedEnough() {
            long mustFree = rights.departments().ownDepartmentMustFree();
            if (mustFree == 0 || claimantDepartment == null) {
                return true;
            }
            boolean tookOutside = departmentTaken.entrySet().stream()
                    .anyMatch(e -> !e.getKey().equals(claimantDepartment) && e.getValue() > 0);
            return !tookOutside || ownFreed + departmentTaken.getOrDefault(claimantDepartment, 0L) >= mustFree;
        }

        /** Whether the claimant's department freed inside itself what keeps it, with the job, within its maximum. */
        private boolean ownDepartmentWithinMax() {
            long overMax = rights.departments().ownDepartmentOverMax();
            return overMax == 0 || ownFreed + departmentTaken.getOrDefault(claimantDepartment, 0L) >= overMax;
        }

        /** Evicts ({@code sign} 1) or puts back ({@code sign} -1) the job, keeping the running totals. */
        private void take(Workspace.Held candidate, int sign) {
            PlacedJob job = candidate.job();
            Allocation held = candidate.here();
            int team = candidate.team();
            long milli = sign * job.gpuMilli();
            if (sign > 0) {
                ws.state().release(held);
                evicted.add(job);
            } else {
                ws.state().allocate(held);
                evicted.remove(evicted.size() - 1);
            }
            if (teams.isClaimant(team)) {
                ownFreed += milli;
                return;
            }
            teamTaken[team] += milli;
            String d = teams.department(team);
            if (d != null) {
                departmentTaken.merge(d, milli, Long::sum);
            }
        }
    }
}

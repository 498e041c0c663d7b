package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.GangDemand;
import io.quotient.core.placement.GangOutcome;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy.NodeFilter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * A waiting gang as the claimant of a reclaim: whole nodes are freed for it by evicting jobs its rights allow (under
 * the guarantee rule: other teams' borrowed jobs, down to their guarantees), all or nothing. Per GPU model (one pool
 * for all when the gang may mix models), nodes are freed one at a time, each the cheapest node to free by
 * {@link ReclaimSearch} (lowest priority, least work lost, fewest GPUs), with the allowances shrinking by what the
 * earlier nodes took, until the {@link GangPlacer} places the gang; the pool whose evictions cost least wins.
 * Evicting a gang victim frees all its nodes, which the next round sees. When no pool can be freed enough, nothing is
 * evicted: a gang never costs other jobs their place and then still waits.
 *
 * <p>Greedy per node, then pruned, not an exact set cover: on each node the eviction set is the cheapest one; once the
 * gang fits, every victim it can do without is put back (the costliest first), so the set is minimal (no victim can
 * be spared) though not always the cheapest of all. Only evictions: a gang's victims are not moved.
 */
final class GangReclaim {

    /** The jobs evicted (already removed from the workspace) and the gang's replicas there. */
    record Outcome(List<PlacedJob> victims, List<Allocation> replicas) {
    }

    /** One pool's evictions, applied to the workspace, with what they freed for undoing. */
    private record Trial(List<PlacedJob> victims, List<List<Allocation>> freed, ReclaimSearch.Cost cost) {
    }

    /** Asks nothing of a node: a round that only frees inside the department needs no room for a replica there. */
    private static final ResourceDemand NOTHING = ResourceDemand.cpuOnly(0, 0);

    private final Workspace ws;
    private final ReclaimSearch search;
    private final GangPlacer placer;

    GangReclaim(Workspace ws, ReclaimSearch search, GangPlacer placer) {
        this.ws = ws;
        this.search = search;
        this.placer = placer;
    }

    /**
     * Evicts the cheapest jobs that free enough nodes for the gang and returns them with the gang's replicas (not yet
     * booked); or changes nothing and returns empty.
     */
    Optional<Outcome> makeRoom(GangDemand gang, NodeFilter filter, ReclaimRights rights) {
        String bestPool = null;
        Trial best = null;
        for (String pool : pools(gang, filter)) {
            Trial trial = freeNodes(gang, inPool(gang, filter, pool), rights);
            if (trial != null && (best == null || trial.cost().compareTo(best.cost()) < 0)) {
                best = trial;
                bestPool = pool;
            }
            if (trial != null) {
                undo(trial);
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        List<PlacedJob> victims = new ArrayList<>();
        for (PlacedJob victim : best.victims()) {
            victims.add(ws.remove(victim.id()));
        }
        GangOutcome placed = placer.place(ws.state(), gang, inPool(gang, filter, bestPool));
        // the same evictions on the same state place the gang again: the trial saw it
        return Optional.of(new Outcome(victims, ((GangOutcome.Placed) placed).replicas()));
    }

    /**
     * Frees nodes of the pool until the gang fits and its department, if the gang would take it beyond its maximum,
     * has freed inside itself what brings it back ({@link DepartmentLimits#ownDepartmentOverMax()}: a job of the
     * department, on any node, per round once the gang fits), leaving the evictions applied; null (nothing applied)
     * if never.
     */
    private Trial freeNodes(GangDemand gang, NodeFilter pool, ReclaimRights rights) {
        List<PlacedJob> victims = new ArrayList<>();
        List<List<Allocation>> freed = new ArrayList<>();
        Map<String, Long> teamTaken = new HashMap<>();
        Map<String, Long> departmentTaken = new HashMap<>();
        long overMax = rights.departments().ownDepartmentOverMax();
        long insideFreed = 0;
        // each round makes one more node of the pool fit a replica, or frees one more job inside the department
        for (int round = 0; round <= gang.replicas() + (overMax > 0 ? ws.placed().size() : 0); round++) {
            boolean fits = placer.place(ws.state(), gang, pool) instanceof GangOutcome.Placed;
            if (fits && insideFreed >= overMax) {
                return withoutNeedless(gang, pool, new Trial(victims, freed, ReclaimSearch.Cost.NONE), rights);
            }
            NodeFilter notYetFitting = (s, n) -> pool.accepts(s, n) && !s.fits(n, gang.perReplica());
            Optional<ReclaimSearch.Choice> choice = fits
                    ? search.best(NOTHING, (s, n) -> true, remaining(rights, teamTaken, departmentTaken, 1))
                    : search.best(gang.perReplica(), notYetFitting, remaining(rights, teamTaken, departmentTaken, 0));
            if (choice.isEmpty() || choice.get().evictions().isEmpty()) {
                break;
            }
            for (PlacedJob victim : choice.get().evictions()) {
                freed.add(ws.allocations(victim.id()));
                victims.add(ws.remove(victim.id()));
                taken(victim, rights, teamTaken, departmentTaken);
                insideFreed += insideMilli(victim, rights);
            }
        }
        undo(new Trial(victims, freed, ReclaimSearch.Cost.NONE));
        return null;
    }

    /** The job's GPU milli if its team is in the claimant's department (the claimant's own team included), else 0. */
    private long insideMilli(PlacedJob job, ReclaimRights rights) {
        Department claimant = ws.ledger().team(rights.claimantTeam()).department();
        Department of = ws.ledger().team(job.spec().team()).department();
        return claimant != null && of != null && claimant.name().equals(of.name()) ? job.gpuMilli() : 0;
    }

    /**
     * Puts back every victim the gang can do without, the costliest first: greedy node by node may evict on one node
     * what a later eviction (a gang victim freeing several nodes) made needless. A victim inside the claimant's
     * department stays out while the department needs what it freed to stay within its maximum. Leaves the rest
     * applied.
     */
    private Trial withoutNeedless(GangDemand gang, NodeFilter pool, Trial trial, ReclaimRights rights) {
        List<Integer> order = new ArrayList<>(IntStream.range(0, trial.victims().size()).boxed().toList());
        order.sort(Comparator.comparing((Integer i) -> single(trial.victims().get(i))).reversed());
        long spareInside = -rights.departments().ownDepartmentOverMax();
        for (PlacedJob victim : trial.victims()) {
            spareInside += insideMilli(victim, rights);
        }
        Set<Integer> back = new HashSet<>();
        for (int i : order) {
            PlacedJob victim = trial.victims().get(i);
            long inside = insideMilli(victim, rights);
            if (inside > spareInside) {
                continue;
            }
            ws.add(victim, trial.freed().get(i));
            if (placer.place(ws.state(), gang, pool) instanceof GangOutcome.Placed) {
                back.add(i);
                spareInside -= inside;
            } else {
                ws.remove(victim.id());
            }
        }
        List<PlacedJob> victims = new ArrayList<>();
        List<List<Allocation>> freed = new ArrayList<>();
        ReclaimSearch.Cost cost = ReclaimSearch.Cost.NONE;
        for (int i = 0; i < trial.victims().size(); i++) {
            if (!back.contains(i)) {
                PlacedJob victim = trial.victims().get(i);
                victims.add(victim);
                freed.add(trial.freed().get(i));
                cost = cost.evict(victim.spec().priority(), search.work(victim), victim.gpuMilli());
            }
        }
        return new Trial(victims, freed, cost);
    }

    private ReclaimSearch.Cost single(PlacedJob victim) {
        return ReclaimSearch.Cost.NONE.evict(victim.spec().priority(), search.work(victim), victim.gpuMilli());
    }

    private void undo(Trial trial) {
        for (int i = trial.victims().size() - 1; i >= 0; i--) {
            ws.add(trial.victims().get(i), trial.freed().get(i));
        }
    }

    /**
     * The rights less what earlier nodes took already: allowances hold for the whole gang, not per node; with
     * {@code insideAtLeast} milli the node's evictions must free inside the claimant's department.
     */
    private static ReclaimRights remaining(ReclaimRights rights, Map<String, Long> teamTaken,
                                           Map<String, Long> departmentTaken, long insideAtLeast) {
        Map<String, Long> teams = new HashMap<>(rights.teamAllowance());
        teamTaken.forEach((team, milli) -> teams.computeIfPresent(team, (t, left) -> Math.max(0, left - milli)));
        DepartmentLimits limits = rights.departments().insideOnly();
        Map<String, Long> departments = new HashMap<>(limits.allowance());
        departmentTaken.forEach((d, milli) -> departments.computeIfPresent(d, (k, left) -> Math.max(0, left - milli)));
        return new ReclaimRights(rights.rule(), teams, new DepartmentLimits(departments, 0, insideAtLeast),
                rights.claimantTeam(), rights.ownEvictable(), rights.ownMustFree(), true, false);
    }

    private void taken(PlacedJob victim, ReclaimRights rights, Map<String, Long> teamTaken,
                       Map<String, Long> departmentTaken) {
        String team = victim.spec().team();
        if (team.equals(rights.claimantTeam())) {
            return;
        }
        teamTaken.merge(team, victim.gpuMilli(), Long::sum);
        Department department = ws.ledger().team(team).department();
        Department claimant = ws.ledger().team(rights.claimantTeam()).department();
        if (department != null && (claimant == null || !department.name().equals(claimant.name()))) {
            departmentTaken.merge(department.name(), victim.gpuMilli(), Long::sum);
        }
    }

    /** The GPU models of the nodes the filter accepts (one pool, "", when the gang may mix models). */
    private List<String> pools(GangDemand gang, NodeFilter filter) {
        if (gang.mixedModels()) {
            return List.of("");
        }
        ClusterState state = ws.state();
        TreeSet<String> models = new TreeSet<>();
        for (int n = 0; n < state.nodeCount(); n++) {
            if (filter.accepts(state, n) && state.node(n).gpuCount() > 0) {
                models.add(state.node(n).gpuModel());
            }
        }
        return List.copyOf(models);
    }

    private static NodeFilter inPool(GangDemand gang, NodeFilter filter, String pool) {
        if (gang.mixedModels()) {
            return filter;
        }
        return (s, n) -> filter.accepts(s, n) && s.node(n).gpuModel().equals(pool);
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Department;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.GangDemand;
import io.quotient.core.placement.GangOutcome;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy.NodeFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
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
 * be spared) though not always the cheapest of all. Where the rights allow moves (the consolidation rule, and every
 * rule when moves are on), a node may be freed by moving its jobs to other nodes instead, exactly as for a single job
 * ({@link ReclaimSearch}: at most {@link ReclaimSettings#maxMovesPerDecision()} moves per node freed); a moved job
 * keeps running, and a gang's own replicas are never moved.
 */
final class GangReclaim {

    /**
     * The jobs evicted (already removed from the workspace), the jobs moved, in the order the plan must apply them
     * after the evictions, and the gang's replicas there.
     */
    record Outcome(List<PlacedJob> victims, List<PlanAction.Move> moves, List<Allocation> replicas) {}

    /** One pool's evictions and moves, applied to the workspace in order. */
    private record Trial(List<GangStep> steps, ReclaimCost cost) {}

    /** Asks nothing of a node: a round that only frees inside the department needs no room for a replica there. */
    private static final ResourceDemand NOTHING = ResourceDemand.cpuOnly(0, 0);

    private final Workspace ws;
    private final ReclaimSearch search;
    private final GangPlacer placer;
    private final Instant now;
    private final GangRelocation relocation;

    /**
     * @param maxMoves    at most this many jobs moved per node freed ({@link ReclaimSettings#maxMovesPerDecision()})
     * @param moveTargets per job, which nodes may receive it when it is moved
     */
    GangReclaim(
            Workspace ws,
            ReclaimSearch search,
            GangPlacer placer,
            Instant now,
            int maxMoves,
            Function<PlacedJob, NodeFilter> moveTargets) {
        this.ws = ws;
        this.search = search;
        this.placer = placer;
        this.now = now;
        this.relocation = new GangRelocation(ws, search, now, maxMoves, moveTargets);
    }

    /**
     * Evicts and moves the cheapest jobs that free enough nodes for the gang and returns them with the gang's
     * replicas (not yet booked); or changes nothing and returns empty, also when the replicas are not
     * {@code bookable} once room is made (quota at their exact size would refuse them).
     */
    Optional<Outcome> makeRoom(
            GangDemand gang, NodeFilter filter, ReclaimRights rights, Predicate<List<Allocation>> bookable) {
        String bestPool = null;
        Trial best = null;
        for (String pool : pools(gang, filter)) {
            Trial trial = freeNodes(gang, inPool(gang, filter, pool), rights);
            if (trial != null && (best == null || trial.cost().compareTo(best.cost()) < 0)) {
                best = trial;
                bestPool = pool;
            }
            if (trial != null) {
                undo(trial.steps());
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        Optional<List<GangStep>> ordered = RoomOrder.apply(ws, best.steps());
        if (ordered.isEmpty()) {
            return Optional.empty();
        }
        List<PlacedJob> victims = new ArrayList<>();
        List<PlanAction.Move> moves = new ArrayList<>();
        for (GangStep step : ordered.get()) {
            if (step.eviction()) {
                victims.add(step.job());
            } else {
                moves.add(new PlanAction.Move(step.job(), step.movedTo()));
            }
        }
        // the same steps on the same state place the gang again: the trial saw it
        List<Allocation> replicas =
                ((GangOutcome.Placed) placer.place(ws.state(), gang, inPool(gang, filter, bestPool))).replicas();
        if (!bookable.test(replicas)) {
            undo(ordered.get());
            return Optional.empty();
        }
        return Optional.of(new Outcome(victims, moves, replicas));
    }

    /**
     * Frees nodes of the pool until the gang fits, its department, if the gang would take it beyond its maximum,
     * has freed inside itself what brings it back ({@link DepartmentLimits#ownDepartmentOverMax()}: a job of the
     * department, on any node, per round once the gang fits), and the claimant team has freed of its own jobs what
     * the rights say it must ({@link ReclaimRights#ownMustFree()}, likewise a job per round), leaving the steps
     * applied; null (nothing applied) if never.
     */
    private Trial freeNodes(GangDemand gang, NodeFilter pool, ReclaimRights rights) {
        List<GangStep> steps = new ArrayList<>();
        GangAllowance allowance = new GangAllowance(ws, rights);
        long overMax = rights.departments().ownDepartmentOverMax();
        long insideFreed = 0;
        long ownFreed = 0;
        boolean freesMore = overMax > 0 || rights.ownMustFree() > 0;
        // each round makes one more node of the pool fit a replica, or frees one more job the limits need freed
        // (counted before the loop: what is placed shrinks as it frees)
        int rounds = gang.replicas() + (freesMore ? ws.placed().size() : 0);
        for (int round = 0; round <= rounds; round++) {
            boolean fits = placer.place(ws.state(), gang, pool) instanceof GangOutcome.Placed;
            boolean ownDone = ownFreed >= rights.ownMustFree();
            if (fits && insideFreed >= overMax && ownDone) {
                return withoutNeedless(gang, pool, steps, rights);
            }
            NodeFilter fitting = (s, n) -> pool.accepts(s, n) && s.fits(n, gang.perReplica());
            NodeFilter notYetFitting = (s, n) -> pool.accepts(s, n) && !s.fits(n, gang.perReplica());
            // a move onto a node that already holds a replica's room must leave it: it would undo an earlier round
            Optional<ReclaimSearch.Choice> choice = fits
                    ? search.best(
                            NOTHING,
                            (s, n) -> true,
                            allowance.remaining(insideFreed >= overMax ? 0 : 1, ownDone ? 0 : 1),
                            fitting,
                            gang.perReplica())
                    : search.best(
                            gang.perReplica(), notYetFitting, allowance.remaining(0, 0), fitting, gang.perReplica());
            List<GangStep> next = choice.filter(
                            c -> !c.evictions().isEmpty() || !c.moves().isEmpty())
                    .map(this::steps)
                    .orElseGet(() -> fits || !(rights.rule() instanceof ReclaimStep.GuaranteeByRelocation)
                            ? List.of()
                            : relocation.freeOne(gang.perReplica(), notYetFitting, fitting, allowance));
            if (next.isEmpty()) {
                break;
            }
            for (GangStep step : next) {
                step.apply(ws);
                steps.add(step);
                if (step.eviction()) {
                    allowance.taken(step.job());
                    insideFreed += insideMilli(step.job(), rights);
                    ownFreed += ownMilli(step.job(), rights);
                }
            }
        }
        undo(steps);
        return null;
    }

    /** The search's choice as steps, moves first (as the search tried them), not yet applied. */
    private List<GangStep> steps(ReclaimSearch.Choice choice) {
        List<GangStep> steps = new ArrayList<>();
        for (ReclaimSearch.Move m : choice.moves()) {
            steps.add(GangStep.move(ws, m.job(), m.to(), now));
        }
        for (PlacedJob victim : choice.evictions()) {
            steps.add(GangStep.eviction(victim, ws.allocations(victim.id())));
        }
        return steps;
    }

    /** The job's GPU milli if its team is in the claimant's department (the claimant's own team included), else 0. */
    private long insideMilli(PlacedJob job, ReclaimRights rights) {
        Department claimant = ws.ledger().team(rights.claimantTeam()).department();
        Department of = ws.ledger().team(job.spec().team()).department();
        return claimant != null && of != null && claimant.name().equals(of.name()) ? job.gpuMilli() : 0;
    }

    /** The job's GPU milli if it is the claimant team's own, else 0. */
    private static long ownMilli(PlacedJob job, ReclaimRights rights) {
        return job.spec().team().equals(rights.claimantTeam()) ? job.gpuMilli() : 0;
    }

    /**
     * Puts back every victim the gang can do without, the costliest first: greedy node by node may evict on one node
     * what a later eviction (a gang victim freeing several nodes) or move made needless. A victim inside the
     * claimant's department stays out while the department needs what it freed to stay within its maximum, and one of
     * the claimant's own team while the team needs what it freed; one whose GPUs a later move took stays out too.
     * Leaves the rest applied.
     */
    private Trial withoutNeedless(GangDemand gang, NodeFilter pool, List<GangStep> steps, ReclaimRights rights) {
        List<Integer> order = new ArrayList<>(IntStream.range(0, steps.size())
                .filter(i -> steps.get(i).eviction())
                .boxed()
                .toList());
        order.sort(
                Comparator.comparing((Integer i) -> single(steps.get(i).job())).reversed());
        long spareInside = -rights.departments().ownDepartmentOverMax();
        long spareOwn = -rights.ownMustFree();
        for (GangStep step : steps) {
            if (step.eviction()) {
                spareInside += insideMilli(step.job(), rights);
                spareOwn += ownMilli(step.job(), rights);
            }
        }
        Set<Integer> back = new HashSet<>();
        for (int i : order) {
            GangStep step = steps.get(i);
            long inside = insideMilli(step.job(), rights);
            long own = ownMilli(step.job(), rights);
            if (inside > spareInside || own > spareOwn || !fitsBack(step.freed())) {
                continue;
            }
            ws.add(step.job(), step.freed());
            if (placer.place(ws.state(), gang, pool) instanceof GangOutcome.Placed) {
                back.add(i);
                spareInside -= inside;
                spareOwn -= own;
            } else {
                ws.remove(step.job().id());
            }
        }
        List<GangStep> kept = new ArrayList<>();
        ReclaimCost cost = ReclaimCost.NONE;
        for (int i = 0; i < steps.size(); i++) {
            GangStep step = steps.get(i);
            if (!step.eviction()) {
                kept.add(step);
                cost = cost.move();
            } else if (!back.contains(i)) {
                kept.add(step);
                PlacedJob victim = step.job();
                cost = cost.evict(victim.spec().priority(), search.work(victim), victim.gpuMilli());
            }
        }
        return new Trial(kept, cost);
    }

    /** Whether the allocations fit the current state again (a later move may have taken what an eviction freed). */
    private boolean fitsBack(List<Allocation> allocations) {
        return allocations.stream().allMatch(ws.state()::canAllocate);
    }

    private ReclaimCost single(PlacedJob victim) {
        return ReclaimCost.NONE.evict(victim.spec().priority(), search.work(victim), victim.gpuMilli());
    }

    /** Undoes the steps, the latest first (a put-back victim is no longer out, so it is not put back again). */
    private void undo(List<GangStep> steps) {
        for (int i = steps.size() - 1; i >= 0; i--) {
            steps.get(i).undo(ws);
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

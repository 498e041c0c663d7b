package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes room for a job that may take capacity back, as one simulated statement: the cheapest evictions and moves
 * ({@link ReclaimSearch}) allowed by the rights ({@link ReclaimRules}) are applied to the workspace, the job is
 * placed with the policy, and everything is rolled back unless that placement succeeds. A returned outcome is one
 * that was seen to work.
 */
final class PreemptionPlanner {

    /** The victims evicted, the jobs moved and where the job then goes. */
    record Outcome(List<PlacedJob> victims, List<PlanAction.Move> moves, Allocation allocation, ReclaimStep rule) {}

    private final Instant now;
    private final ReclaimSearch search;

    PreemptionPlanner(ReclaimSearch search, Instant now) {
        this.search = search;
        this.now = now;
    }

    /**
     * Evicts and moves jobs in the workspace and places the demand, or changes nothing and returns empty when the
     * rights allow no way to make room.
     */
    Optional<Outcome> makeRoom(
            Workspace ws,
            ResourceDemand demand,
            PlacementPolicy.NodeFilter filter,
            PlacementPolicy policy,
            ReclaimRights rights) {
        Optional<ReclaimSearch.Choice> choice = search.best(demand, filter, rights);
        if (choice.isEmpty()) {
            return Optional.empty();
        }
        ReclaimSearch.Choice c = choice.get();
        List<PlanAction.Move> moves = new ArrayList<>();
        List<Allocation> movedFrom = new ArrayList<>();
        for (ReclaimSearch.Move m : c.moves()) {
            movedFrom.add(ws.allocation(m.job().id()).orElseThrow());
            PlacedJob from = ws.remove(m.job().id());
            PlacedJob to = ws.placement(from.spec(), m.to(), from.quotaState(), now);
            ws.add(to, m.to());
            moves.add(new PlanAction.Move(from, to));
        }
        List<PlacedJob> evicted = new ArrayList<>();
        List<List<Allocation>> freed = new ArrayList<>();
        for (PlacedJob victim : c.evictions()) {
            freed.add(ws.allocations(victim.id())); // a gang's eviction frees every replica
            evicted.add(ws.remove(victim.id()));
        }
        int node = c.node();
        Optional<Allocation> placed = policy.place(ws.state(), demand, (s, n) -> n == node && filter.accepts(s, n));
        if (placed.isPresent()) {
            return Optional.of(new Outcome(evicted, moves, placed.get(), rights.rule()));
        }
        for (int i = 0; i < evicted.size(); i++) {
            ws.add(evicted.get(i), freed.get(i));
        }
        for (int i = moves.size() - 1; i >= 0; i--) {
            ws.remove(moves.get(i).to().id());
            ws.add(moves.get(i).from(), movedFrom.get(i));
        }
        return Optional.empty();
    }

    /**
     * When the first job now protected by its minimum runtime may be preempted, if any is; tells a waiting team
     * when reclaiming can go further.
     */
    Optional<Instant> nextUnprotected(Workspace ws) {
        return ws.placed().stream()
                .filter(j -> j.spec().preemptible() && !search.movableOrEvictable(j))
                .map(j -> j.protectedUntil())
                .min(Instant::compareTo);
    }
}

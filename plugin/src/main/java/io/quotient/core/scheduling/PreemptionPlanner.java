package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Finds the borrowed capacity to take back so that an in-quota job can run: the smallest set of over-quota jobs on
 * one node whose eviction lets the job fit there. Among sets of equal size it prefers victims of teams furthest
 * above their fair share, then of lowest priority, then those whose eviction loses the least work. Never a job of
 * any team that runs inside its guarantee, never a non-preemptible job, never a job inside its minimum runtime.
 *
 * <p>Every candidate set is tried on the workspace (evict, place with the policy, check) and undone unless the
 * placement really succeeds, so a returned plan is one that was seen to work.
 */
final class PreemptionPlanner {

    /** The victims to evict and where the job then goes. */
    record Outcome(List<PlacedJob> victims, Allocation allocation) {
    }

    private record Option(int node, List<PlacedJob> victims) {
    }

    private final Comparator<PlacedJob> victimOrder;
    private final Instant now;

    /** @param fairShare per team, its fair share in milli; teams furthest above it lose their jobs first */
    PreemptionPlanner(QuotaLedger ledger, Map<String, Long> fairShare, Instant now) {
        this.now = now;
        this.victimOrder = Comparator
                .comparingLong((PlacedJob j) -> -(ledger.total(j.spec().team())
                        - fairShare.getOrDefault(j.spec().team(), 0L)))
                .thenComparingInt(j -> j.spec().priority())
                .thenComparingDouble(this::workLost)
                .thenComparing(j -> j.id().toString());
    }

    /** Whether the job may be evicted to make room for another team's (or its own team's) in-quota work. */
    boolean evictable(PlacedJob job) {
        return job.quotaState() == QuotaState.OVER_QUOTA && job.spec().preemptible()
                && !now.isBefore(job.startedAt().plus(job.spec().minRuntime()));
    }

    /**
     * When the first borrowed job now protected by its minimum runtime may be preempted, if any is; tells a waiting
     * team when reclaiming can go further.
     */
    Optional<Instant> nextUnprotected(Workspace ws) {
        return ws.placed().stream()
                .filter(j -> j.quotaState() == QuotaState.OVER_QUOTA && j.spec().preemptible() && !evictable(j))
                .map(j -> j.startedAt().plus(j.spec().minRuntime())).min(Instant::compareTo);
    }

    /**
     * Evicts victims from the workspace and places the demand there, or changes nothing and returns empty when no
     * set of evictable jobs makes room.
     */
    Optional<Outcome> makeRoom(Workspace ws, ResourceDemand demand, PlacementPolicy.NodeFilter filter,
                               PlacementPolicy policy) {
        for (Option option : options(ws, demand, filter)) {
            List<PlacedJob> evicted = new ArrayList<>();
            List<Allocation> freed = new ArrayList<>();
            for (PlacedJob victim : option.victims()) {
                freed.add(ws.allocation(victim.id()).orElseThrow());
                evicted.add(ws.remove(victim.id()));
            }
            int node = option.node();
            Optional<Allocation> placed = policy.place(ws.state(), demand, (s, n) -> n == node && filter.accepts(s, n));
            if (placed.isPresent()) {
                return Optional.of(new Outcome(evicted, placed.get()));
            }
            for (int i = 0; i < evicted.size(); i++) {
                ws.add(evicted.get(i), freed.get(i));
            }
        }
        return Optional.empty();
    }

    /** Per node that can be made to fit, its minimal victim set; best options first. */
    private List<Option> options(Workspace ws, ResourceDemand demand, PlacementPolicy.NodeFilter filter) {
        ClusterState state = ws.state();
        Map<Integer, List<PlacedJob>> byNode = new TreeMap<>();
        for (PlacedJob job : ws.placed()) {
            int node = ws.nodeIndex(job.node());
            if (node >= 0 && evictable(job) && ws.allocation(job.id()).isPresent() && filter.accepts(state, node)) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(job);
            }
        }
        List<Option> options = new ArrayList<>();
        byNode.forEach((node, candidates) -> {
            candidates.sort(victimOrder);
            List<PlacedJob> victims = victimsOn(ws, node, candidates, demand);
            if (!victims.isEmpty()) {
                options.add(new Option(node, victims));
            }
        });
        options.sort(Comparator.comparingInt((Option o) -> o.victims().size())
                .thenComparing((a, b) -> compareVictims(a.victims(), b.victims()))
                .thenComparingInt(Option::node));
        return options;
    }

    /**
     * Evicts candidates in order until the demand fits, then puts back every victim the fit does not need (the
     * latest first); the state is restored before returning. Empty when even all candidates are not enough.
     */
    private static List<PlacedJob> victimsOn(Workspace ws, int node, List<PlacedJob> candidates,
                                             ResourceDemand demand) {
        ClusterState state = ws.state();
        List<PlacedJob> chosen = new ArrayList<>();
        for (PlacedJob c : candidates) {
            if (state.fits(node, demand)) {
                break;
            }
            state.release(ws.allocation(c.id()).orElseThrow());
            chosen.add(c);
        }
        boolean fits = state.fits(node, demand);
        for (int i = chosen.size() - 1; i >= 0 && fits; i--) {
            Allocation a = ws.allocation(chosen.get(i).id()).orElseThrow();
            state.allocate(a);
            if (state.fits(node, demand)) {
                chosen.remove(i);
            } else {
                state.release(a);
            }
        }
        chosen.forEach(c -> state.allocate(ws.allocation(c.id()).orElseThrow()));
        return fits ? chosen : List.of();
    }

    private int compareVictims(List<PlacedJob> a, List<PlacedJob> b) {
        List<PlacedJob> sa = a.stream().sorted(victimOrder).toList();
        List<PlacedJob> sb = b.stream().sorted(victimOrder).toList();
        for (int i = 0; i < Math.min(sa.size(), sb.size()); i++) {
            int c = victimOrder.compare(sa.get(i), sb.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(sa.size(), sb.size());
    }

    /** GPU-seconds of work since the job started (what a restart without checkpoint repeats). */
    private double workLost(PlacedJob job) {
        double seconds = Math.max(0, java.time.Duration.between(job.startedAt(), now).toMillis() / 1000.0);
        return seconds * Math.max(1, job.gpuMilli()) / ResourceDemand.WHOLE;
    }
}

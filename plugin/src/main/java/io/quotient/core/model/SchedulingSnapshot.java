package io.quotient.core.model;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.UsageHistory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a decision needs, observed at one instant. Immutable: planners never change it, they
 * return a {@link Plan} that the adapters apply.
 *
 * @param fractionReadyNodes nodes whose node enforcer is ready; only these receive new fractional jobs
 * @param pastBorrowedMilli  per team, its decayed past borrowing in milli ({@link UsageHistory}); empty when fair
 *                           shares have no memory
 */
public record SchedulingSnapshot(
        List<NodeSpec> nodes,
        Set<String> fractionReadyNodes,
        List<PlacedJob> placed,
        List<PendingJob> pending,
        Map<String, Team> teams,
        Instant now,
        Map<String, Double> pastBorrowedMilli) {

    public SchedulingSnapshot {
        nodes = List.copyOf(nodes);
        fractionReadyNodes = Set.copyOf(fractionReadyNodes);
        placed = List.copyOf(placed);
        pending = List.copyOf(pending);
        teams = Map.copyOf(teams);
        pastBorrowedMilli = Map.copyOf(pastBorrowedMilli);
    }

    /** A snapshot without past usage (fair shares without memory). */
    public SchedulingSnapshot(
            List<NodeSpec> nodes,
            Set<String> fractionReadyNodes,
            List<PlacedJob> placed,
            List<PendingJob> pending,
            Map<String, Team> teams,
            Instant now) {
        this(nodes, fractionReadyNodes, placed, pending, teams, now, Map.of());
    }

    /** The same snapshot with the teams' decayed past borrowing. */
    public SchedulingSnapshot withPastBorrowed(Map<String, Double> past) {
        return new SchedulingSnapshot(nodes, fractionReadyNodes, placed, pending, teams, now, past);
    }
}

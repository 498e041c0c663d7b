package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a decision needs, observed at one instant. Immutable: planners never change it, they
 * return a {@link Plan} that the adapters apply.
 *
 * @param fractionReadyNodes nodes whose node enforcer is ready; only these receive new fractional jobs
 */
public record SchedulingSnapshot(List<NodeSpec> nodes, Set<String> fractionReadyNodes, List<PlacedJob> placed,
                                 List<PendingJob> pending, Map<String, Team> teams, Instant now) {

    public SchedulingSnapshot {
        nodes = List.copyOf(nodes);
        fractionReadyNodes = Set.copyOf(fractionReadyNodes);
        placed = List.copyOf(placed);
        pending = List.copyOf(pending);
        teams = Map.copyOf(teams);
    }
}

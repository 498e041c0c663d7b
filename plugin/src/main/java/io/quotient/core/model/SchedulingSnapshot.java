package io.quotient.core.model;

import io.quotient.core.cluster.NodeSpec;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a decision needs, observed at one instant. Immutable: planners never change it, they
 * return a plan ({@code core.scheduling.Plan}) that the adapters apply. Its teams, past borrowing and fraction-ready nodes iterate in name
 * order, so a decision never depends on the order the caller's collections happened to have.
 *
 * @param fractionReadyNodes nodes whose node enforcer is ready; only these receive new fractional jobs
 * @param pastBorrowedMilli  per team, its decayed past borrowing in milli ({@code core.scheduling.UsageHistory}); empty when fair
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
        // in name order, not Map.copyOf's: its iteration order is salted per JVM, and an order that reaches a
        // decision (a tie, a rounding) made the same input decide differently in two runs
        fractionReadyNodes = Collections.unmodifiableSortedSet(new TreeSet<>(fractionReadyNodes));
        placed = List.copyOf(placed);
        pending = List.copyOf(pending);
        teams = inNameOrder(teams);
        pastBorrowedMilli = inNameOrder(pastBorrowedMilli);
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

    /** The map iterating in key order, with hashed lookups (the queue order reads a team per comparison). */
    private static <V> Map<String, V> inNameOrder(Map<String, V> map) {
        Map<String, V> sorted = new LinkedHashMap<>();
        new TreeMap<>(map).forEach((k, v) -> sorted.put(k, Objects.requireNonNull(v, k)));
        return Collections.unmodifiableMap(sorted);
    }
}

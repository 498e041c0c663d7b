package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each team's fair share of the cluster's GPUs, in milli: its guarantee (as far as it has demand for it), plus a
 * share of what is left, handed out to higher-priority teams first and, within a priority, in proportion to the
 * teams' over-quota weights (weighted max-min: no team gets more than it asks for or than its maximum, and what one
 * team cannot use goes to the others).
 *
 * <p>With departments the same division runs on two levels: the cluster is divided among departments (and teams
 * outside any department), then each department's share among its teams. A team thus borrows what its own
 * department leaves idle before what other departments leave idle.
 *
 * <p>With usage decay on ({@link FairShareSettings}) each team also brings its decayed past borrowing (a
 * department its own past borrowing beyond the department's guarantee): within a tier idle capacity then equalises (past borrowing + share beyond the
 * guarantee) / weight instead of share beyond the guarantee / weight, so a team that borrowed more lately gets less
 * of today's idle capacity. Guarantees are handed out first, as without decay.
 */
final class FairShare {

    /**
     * One claimant of a division: what it is guaranteed, the most it can use, its weight and priority, and its decayed
     * past borrowing in milli (0 without decay).
     */
    private record Claim(String name, long guaranteed, long ceiling, double weight, int priority, double past) {}

    private FairShare() {}

    /**
     * @param demand   per team, what it holds plus what it waits for, in milli
     * @param capacity the cluster's GPU capacity in milli
     */
    static Map<String, Long> of(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        return of(teams, demand, capacity, Map.of());
    }

    /**
     * @param past per team, its decayed past borrowing in milli ({@link UsageHistory}); empty: instantaneous
     */
    static Map<String, Long> of(
            Map<String, Team> teams, Map<String, Long> demand, long capacity, Map<String, Double> past) {
        return of(teams, demand, capacity, past, true);
    }

    /**
     * Each team's entitlement to its guarantee: the first step of the division alone, its guarantee as far as it has
     * demand for it and, where the guarantees exceed the cluster (or its department's guarantee), met in proportion
     * to the guarantees. What the re-queue gives a team before any team borrows, so the most a report may hold a
     * scheduler to for the team's guarantee.
     */
    static Map<String, Long> guaranteed(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        return of(teams, demand, capacity, Map.of(), false);
    }

    private static Map<String, Long> of(
            Map<String, Team> teams, Map<String, Long> demand, long capacity, Map<String, Double> past, boolean idle) {
        Map<String, List<Team>> byDepartment = new LinkedHashMap<>();
        List<Claim> top = new ArrayList<>();
        for (Team t : teams.values()) {
            if (t.department() == null) {
                top.add(teamClaim(t, demand, past));
            } else {
                byDepartment
                        .computeIfAbsent(t.department().name(), d -> new ArrayList<>())
                        .add(t);
            }
        }
        byDepartment.forEach((name, members) -> top.add(departmentClaim(members, demand, past)));
        Map<String, Long> topShares = divide(top, capacity, idle);
        Map<String, Long> share = new HashMap<>();
        teams.values().stream()
                .filter(t -> t.department() == null)
                .forEach(t -> share.put(t.name(), topShares.get(t.name())));
        byDepartment.forEach((name, members) -> share.putAll(divide(
                members.stream().map(t -> teamClaim(t, demand, past)).toList(),
                topShares.get(departmentKey(name)),
                idle)));
        return share;
    }

    /** Each department's share, by department name (empty without departments). */
    static Map<String, Long> ofDepartments(Map<String, Team> teams, Map<String, Long> teamShares) {
        Map<String, Long> shares = new HashMap<>();
        teams.values().stream()
                .filter(t -> t.department() != null)
                .forEach(t -> shares.merge(t.department().name(), teamShares.getOrDefault(t.name(), 0L), Long::sum));
        return shares;
    }

    private static Claim teamClaim(Team t, Map<String, Long> demand, Map<String, Double> past) {
        long ceiling = Math.min(demand.getOrDefault(t.name(), 0L), t.maxMilli());
        return new Claim(
                t.name(),
                t.guaranteedMilli(),
                ceiling,
                t.overQuotaWeight(),
                t.priority(),
                past.getOrDefault(t.name(), 0.0));
    }

    private static Claim departmentClaim(List<Team> members, Map<String, Long> demand, Map<String, Double> past) {
        Department d = members.get(0).department();
        long ceiling = 0;
        int priority = Integer.MIN_VALUE;
        for (Team t : members) {
            ceiling += Math.min(demand.getOrDefault(t.name(), 0L), t.maxMilli());
            priority = Math.max(priority, t.priority());
        }
        // the department's own past borrowing beyond its guarantee, not its teams' summed: a team that borrowed a
        // sibling's idle guarantee borrowed nothing of the cluster, and it cost the whole department its part of
        // the cluster's idle GPUs later (use within a guarantee costs nothing later, at either level)
        return new Claim(
                departmentKey(d.name()),
                d.guaranteedMilli(),
                Math.min(ceiling, d.maxMilli()),
                d.overQuotaWeight(),
                priority,
                past.getOrDefault(departmentKey(d.name()), 0.0));
    }

    /**
     * Department and team names share one map during the top-level division, and in the usage history
     * ({@link UsageHistory#borrowedMilli(Map, List)}); this keeps them apart (a team name holds no '/').
     */
    static String departmentKey(String department) {
        return "department/" + department;
    }

    /**
     * Guarantees (as far as demanded) first, then ({@code idle}) what is left by priority tier and weight. The claims are taken in
     * name order, never in the order of the caller's map: the milli left by rounding go to the first claims of a
     * tier, and a map's order may differ between JVM runs (Map.copyOf's is salted per JVM), which made the same
     * input give different shares, and so different reclaims, in two runs.
     */
    private static Map<String, Long> divide(List<Claim> unordered, long capacity, boolean idle) {
        List<Claim> claims =
                unordered.stream().sorted(Comparator.comparing(Claim::name)).toList();
        Map<String, Long> share = new HashMap<>();
        TreeMap<Integer, List<Claim>> tiers = new TreeMap<>(Comparator.reverseOrder());
        claims.forEach(
                c -> tiers.computeIfAbsent(c.priority(), p -> new ArrayList<>()).add(c));
        long left = capacity;
        for (List<Claim> tier : tiers.values()) {
            left = guarantees(tier, share, left);
        }
        for (List<Claim> tier : tiers.values()) {
            if (left <= 0 || !idle) {
                break;
            }
            // without past usage exactly the instantaneous division (and its rounding) of before
            left = tier.stream().anyMatch(c -> c.past() > 0)
                    ? fillWithPast(tier, share, left)
                    : fill(tier, share, left);
        }
        return share;
    }

    /**
     * The tier's guarantees, as far as demanded; returns what is left. When they exceed what is left (guarantees
     * overcommitted, or a node lost) they are met in proportion to the guarantees, each capped at its demand, as the
     * re-queue shares the GPUs left toward the guarantees' proportions: handed out in name order, the first teams got
     * all of theirs and the last none, and a team's name decided who was owed GPUs.
     */
    private static long guarantees(List<Claim> tier, Map<String, Long> share, long left) {
        long wanted = 0;
        for (Claim c : tier) {
            long w = owed(c);
            share.put(c.name(), 0L);
            wanted += w;
        }
        if (wanted <= left) {
            tier.forEach(c -> share.put(c.name(), owed(c)));
            return left - wanted;
        }
        if (left <= 0) {
            return left;
        }
        // the level, in milli per guaranteed milli, at which min(owed, level × guarantee) takes what is left
        double low = 0;
        double high = 1;
        for (int i = 0; i < 100; i++) {
            double mid = (low + high) / 2;
            double poured = tier.stream()
                    .mapToDouble(c -> Math.min(owed(c), mid * c.guaranteed()))
                    .sum();
            if (poured < left) {
                low = mid;
            } else {
                high = mid;
            }
        }
        double level = low;
        long handed = 0;
        for (Claim c : tier) {
            long given = Math.min(owed(c), (long) Math.floor(level * c.guaranteed()));
            share.put(c.name(), given);
            handed += given;
        }
        // the milli the rounding leaves, one by one to the claims lowest in their guarantee (name order among equals)
        Comparator<Claim> lowest = Comparator.comparingDouble(c -> (double) share.get(c.name()) / c.guaranteed());
        while (handed < left) {
            Claim next = tier.stream()
                    .filter(c -> share.get(c.name()) < owed(c))
                    .min(lowest)
                    .orElseThrow();
            share.merge(next.name(), 1L, Long::sum);
            handed++;
        }
        return 0;
    }

    /** What of its guarantee a claim is owed: as far as it has demand for it. */
    private static long owed(Claim c) {
        return Math.max(0, Math.min(c.guaranteed(), c.ceiling()));
    }

    /** Water-filling within one priority tier; returns what is left for lower tiers. */
    private static long fill(List<Claim> tier, Map<String, Long> share, long left) {
        List<Claim> hungry = new ArrayList<>(
                tier.stream().filter(c -> c.weight() > 0 && want(c, share) > 0).toList());
        while (left > 0 && !hungry.isEmpty()) {
            double weights = hungry.stream().mapToDouble(Claim::weight).sum();
            long handed = 0;
            for (Claim c : hungry) {
                long portion = Math.max(1, (long) Math.floor(left * c.weight() / weights));
                long given = Math.min(Math.min(portion, want(c, share)), left - handed);
                share.merge(c.name(), given, Long::sum);
                handed += given;
            }
            left -= handed;
            hungry.removeIf(c -> want(c, share) <= 0);
            if (handed == 0) {
                break;
            }
        }
        return left;
    }

    /**
     * Water-filling within one tier toward equal (past + share beyond the guarantee) / weight: the level is found by
     * bisection, each claim gets the whole milli below it, and the milli rounding leaves go one by one to the claims
     * lowest on that measure. Returns what is left for lower tiers.
     */
    private static long fillWithPast(List<Claim> tier, Map<String, Long> share, long left) {
        List<Claim> hungry =
                tier.stream().filter(c -> c.weight() > 0 && want(c, share) > 0).toList();
        long wanted = hungry.stream().mapToLong(c -> want(c, share)).sum();
        long pool = Math.min(left, wanted);
        if (pool <= 0) {
            return left;
        }
        Map<String, Long> base = new HashMap<>();
        hungry.forEach(c -> base.put(c.name(), share.getOrDefault(c.name(), 0L)));
        // the level, in milli per unit of weight, at which the hungry claims together take the pool
        double low = 0;
        double high = hungry.stream()
                .mapToDouble(c -> (c.past() + want(c, share)) / c.weight())
                .max()
                .orElse(0);
        for (int i = 0; i < 100; i++) {
            double mid = (low + high) / 2;
            if (pouredAt(hungry, share, mid) < pool) {
                low = mid;
            } else {
                high = mid;
            }
        }
        long handed = 0;
        for (Claim c : hungry) {
            long given = Math.min(want(c, share), (long) Math.floor(portionAt(c, share, low)));
            share.merge(c.name(), given, Long::sum);
            handed += given;
        }
        Comparator<Claim> lowest =
                Comparator.comparingDouble(c -> (c.past() + share.get(c.name()) - base.get(c.name())) / c.weight());
        while (handed < pool) {
            Claim next =
                    hungry.stream().filter(c -> want(c, share) > 0).min(lowest).orElseThrow();
            share.merge(next.name(), 1L, Long::sum);
            handed++;
        }
        return left - handed;
    }

    private static double pouredAt(List<Claim> hungry, Map<String, Long> share, double level) {
        return hungry.stream().mapToDouble(c -> portionAt(c, share, level)).sum();
    }

    /** What the claim takes beyond its current share at the level: level × weight − past, within 0 and its want. */
    private static double portionAt(Claim c, Map<String, Long> share, double level) {
        return Math.max(0, Math.min(want(c, share), level * c.weight() - c.past()));
    }

    private static long want(Claim c, Map<String, Long> share) {
        return c.ceiling() - share.getOrDefault(c.name(), 0L);
    }
}

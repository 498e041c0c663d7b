package io.quotient.core.scheduling;

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
 */
final class FairShare {

    /** One claimant of a division: what it is guaranteed, the most it can use, its weight and priority. */
    private record Claim(String name, long guaranteed, long ceiling, double weight, int priority) {
    }

    private FairShare() {
    }

    /**
     * @param demand   per team, what it holds plus what it waits for, in milli
     * @param capacity the cluster's GPU capacity in milli
     */
    static Map<String, Long> of(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        Map<String, List<Team>> byDepartment = new LinkedHashMap<>();
        List<Claim> top = new ArrayList<>();
        for (Team t : teams.values()) {
            if (t.department() == null) {
                top.add(teamClaim(t, demand));
            } else {
                byDepartment.computeIfAbsent(t.department().name(), d -> new ArrayList<>()).add(t);
            }
        }
        byDepartment.forEach((name, members) -> top.add(departmentClaim(members, demand)));
        Map<String, Long> topShares = divide(top, capacity);
        Map<String, Long> share = new HashMap<>();
        teams.values().stream().filter(t -> t.department() == null)
                .forEach(t -> share.put(t.name(), topShares.get(t.name())));
        byDepartment.forEach((name, members) -> share.putAll(divide(members.stream()
                .map(t -> teamClaim(t, demand)).toList(), topShares.get(departmentKey(name)))));
        return share;
    }

    /** Each department's share, by department name (empty without departments). */
    static Map<String, Long> ofDepartments(Map<String, Team> teams, Map<String, Long> teamShares) {
        Map<String, Long> shares = new HashMap<>();
        teams.values().stream().filter(t -> t.department() != null).forEach(t ->
                shares.merge(t.department().name(), teamShares.getOrDefault(t.name(), 0L), Long::sum));
        return shares;
    }

    private static Claim teamClaim(Team t, Map<String, Long> demand) {
        long ceiling = Math.min(demand.getOrDefault(t.name(), 0L), t.maxMilli());
        return new Claim(t.name(), t.guaranteedMilli(), ceiling, t.overQuotaWeight(), t.priority());
    }

    private static Claim departmentClaim(List<Team> members, Map<String, Long> demand) {
        Department d = members.get(0).department();
        long ceiling = 0;
        int priority = Integer.MIN_VALUE;
        for (Team t : members) {
            ceiling += Math.min(demand.getOrDefault(t.name(), 0L), t.maxMilli());
            priority = Math.max(priority, t.priority());
        }
        return new Claim(departmentKey(d.name()), d.guaranteedMilli(), Math.min(ceiling, d.maxMilli()),
                d.overQuotaWeight(), priority);
    }

    /** Department and team names share one map during the top-level division; this keeps them apart. */
    private static String departmentKey(String department) {
        return "department/" + department;
    }

    /** Guarantees (as far as demanded) first, then what is left by priority tier and weight. */
    private static Map<String, Long> divide(List<Claim> claims, long capacity) {
        Map<String, Long> share = new HashMap<>();
        long left = capacity;
        for (Claim c : claims) {
            long s = Math.max(0, Math.min(Math.min(c.guaranteed(), c.ceiling()), left));
            share.put(c.name(), s);
            left -= s;
        }
        TreeMap<Integer, List<Claim>> tiers = new TreeMap<>(Comparator.reverseOrder());
        claims.forEach(c -> tiers.computeIfAbsent(c.priority(), p -> new ArrayList<>()).add(c));
        for (List<Claim> tier : tiers.values()) {
            if (left <= 0) {
                break;
            }
            left = fill(tier, share, left);
        }
        return share;
    }

    /** Water-filling within one priority tier; returns what is left for lower tiers. */
    private static long fill(List<Claim> tier, Map<String, Long> share, long left) {
        List<Claim> hungry = new ArrayList<>(tier.stream().filter(c -> c.weight() > 0 && want(c, share) > 0).toList());
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

    private static long want(Claim c, Map<String, Long> share) {
        return c.ceiling() - share.getOrDefault(c.name(), 0L);
    }
}

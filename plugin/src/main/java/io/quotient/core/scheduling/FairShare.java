package io.quotient.core.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each team's fair share of the cluster's GPUs, in milli: its guarantee (as far as it has demand for it), plus a
 * share of what is left, handed out to higher-priority teams first and, within a priority, in proportion to the
 * teams' over-quota weights (weighted max-min: no team gets more than it asks for or than its maximum, and what one
 * team cannot use goes to the others).
 */
final class FairShare {

    private FairShare() {
    }

    /**
     * @param demand   per team, what it holds plus what it waits for, in milli
     * @param capacity the cluster's GPU capacity in milli
     */
    static Map<String, Long> of(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        Map<String, Long> share = new HashMap<>();
        long left = capacity;
        for (Team t : teams.values()) {
            long s = Math.min(t.guaranteedMilli(), demand.getOrDefault(t.name(), 0L));
            share.put(t.name(), s);
            left -= s;
        }
        TreeMap<Integer, List<Team>> tiers = new TreeMap<>(Comparator.reverseOrder());
        teams.values().forEach(t -> tiers.computeIfAbsent(t.priority(), p -> new ArrayList<>()).add(t));
        for (List<Team> tier : tiers.values()) {
            if (left <= 0) {
                break;
            }
            left = fill(tier, demand, share, left);
        }
        return share;
    }

    /** Water-filling within one priority tier; returns what is left for lower tiers. */
    private static long fill(List<Team> tier, Map<String, Long> demand, Map<String, Long> share, long left) {
        List<Team> hungry = new ArrayList<>(tier.stream().filter(t -> t.overQuotaWeight() > 0
                && want(t, demand, share) > 0).toList());
        while (left > 0 && !hungry.isEmpty()) {
            double weights = hungry.stream().mapToDouble(Team::overQuotaWeight).sum();
            long handed = 0;
            for (Team t : hungry) {
                long portion = Math.max(1, (long) Math.floor(left * t.overQuotaWeight() / weights));
                long given = Math.min(Math.min(portion, want(t, demand, share)), left - handed);
                share.merge(t.name(), given, Long::sum);
                handed += given;
            }
            left -= handed;
            hungry.removeIf(t -> want(t, demand, share) <= 0);
            if (handed == 0) {
                break;
            }
        }
        return left;
    }

    private static long want(Team t, Map<String, Long> demand, Map<String, Long> share) {
        long ceiling = Math.min(demand.getOrDefault(t.name(), 0L), t.maxMilli());
        return ceiling - share.getOrDefault(t.name(), 0L);
    }
}

package io.quotient.it.soak;

import io.quotient.it.soak.Observation.ObservedJob;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * No in-quota job evicted for another team. A job seen holding GPUs and then seen evicted for another team's claim
 * (its reason "Preempted by T reclaiming its guarantee ...; ... (V held H GPUs with a guarantee of G)") is a violation
 * when its team was not above its guarantee (H &le; G), when the evictions of that one claim took its team below its
 * guarantee, or when the job itself was placed in quota and its team's guarantee was not lowered since.
 */
final class EvictionChecks {

    private static final Pattern FOR_ANOTHER_TEAM = Pattern.compile("^Preempted by (\\S+) reclaiming its guarantee for"
            + " (\\S+); this job ran on borrowed GPUs \\((\\S+) held ([0-9.]+) GPUs with a guarantee of ([0-9.]+)\\)");

    private final Map<String, Long> evictedPerClaim = new HashMap<>();
    private int evictions;

    /**
     * @param before        the job in the previous look (holding GPUs)
     * @param after         the job now
     * @param placedSince   when it was first seen holding GPUs
     * @param loweredAt     when its team's guarantee was last lowered (-1 if never)
     */
    List<String> check(ObservedJob before, ObservedJob after, long placedSince, long loweredAt) {
        List<String> violations = new ArrayList<>();
        if (after.holds() || after.reason() == null || !after.reason().startsWith("Preempted")) {
            return violations;
        }
        evictions++;
        Matcher m = FOR_ANOTHER_TEAM.matcher(after.reason());
        if (!m.find() || m.group(1).equals(after.team())) {
            return violations;
        }
        double held = Double.parseDouble(m.group(4));
        double guarantee = Double.parseDouble(m.group(5));
        String who = after.key() + " (" + before.quota() + ", " + before.heldMilli() + " milli)";
        if (held <= guarantee + 1e-9) {
            violations.add(who + " was evicted for " + m.group(1) + " while " + after.team() + " held " + held
                    + " GPUs, not above its guarantee of " + guarantee + ": " + after.reason());
        }
        String claim = after.reason();
        long evicted = evictedPerClaim.merge(claim, before.heldMilli(), Long::sum);
        if (held > guarantee + 1e-9 && Math.round(held * 1000) - evicted < Math.round(guarantee * 1000) - 1) {
            violations.add("evictions for " + m.group(2) + " took " + after.team() + " from " + held
                    + " GPUs to " + (Math.round(held * 1000) - evicted) / 1000.0 + ", below its guarantee of "
                    + guarantee + " (last: " + who + ")");
        }
        if ("InQuota".equals(before.quota()) && loweredAt < placedSince) {
            violations.add("in-quota job " + who + " was evicted for another team (" + m.group(1)
                    + ") and " + after.team() + "'s guarantee was not lowered since it was placed: " + after.reason());
        }
        return violations;
    }

    int evictions() {
        return evictions;
    }
}

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
 * guarantee, or when the job itself was in quota by a label known to be current ({@link QuotaLabelTrust}: the stored
 * state is recomputed as the team changes and refreshed by the leader within a bound). An eviction
 * by the within-one-job rule (reason "Preempted by T reclaiming its guarantee for J (T held h of g guaranteed GPUs);
 * V held H GPUs with a guarantee of G and no smaller set ...") is a violation when V was not above G, or when the
 * evictions of that claim left V as far below G as T was below g, or further.
 */
final class EvictionChecks {

    private static final Pattern FOR_ANOTHER_TEAM = Pattern.compile("^Preempted by (\\S+) reclaiming its guarantee for"
            + " (\\S+); this job ran on borrowed GPUs \\((\\S+) held ([0-9.]+) GPUs with a guarantee of ([0-9.]+)\\)");

    private static final Pattern WITHIN_ONE_JOB = Pattern.compile("^Preempted by (\\S+) reclaiming its guarantee for"
            + " (\\S+) \\(\\S+ held ([0-9.]+) of ([0-9.]+) guaranteed GPUs\\); (\\S+) held ([0-9.]+) GPUs with a"
            + " guarantee of ([0-9.]+) and no smaller set");

    private final Map<String, Long> evictedPerClaim = new HashMap<>();
    private int evictions;

    /**
     * @param before        the job in the previous look (holding GPUs)
     * @param after         the job now
     * @param labelCurrent  whether {@code before}'s quota state was current (its team stable long enough, {@link
     *                      QuotaLabelTrust})
     */
    List<String> check(ObservedJob before, ObservedJob after, boolean labelCurrent) {
        List<String> violations = new ArrayList<>();
        if (after.holds() || after.reason() == null || !after.reason().startsWith("Preempted")) {
            return violations;
        }
        evictions++;
        Matcher within = WITHIN_ONE_JOB.matcher(after.reason());
        if (within.find()) {
            return checkWithinOneJob(within, before, after, violations);
        }
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
        if ("InQuota".equals(before.quota()) && labelCurrent) {
            violations.add("in-quota job " + who + " was evicted for another team (" + m.group(1) + "), its label"
                    + " current (" + after.team() + " unchanged for " + QuotaLabelTrust.STALENESS_MS / 1000
                    + " s before, same leader, no fault): " + after.reason());
        }
        return violations;
    }

    private List<String> checkWithinOneJob(Matcher m, ObservedJob before, ObservedJob after, List<String> violations) {
        long claimantShortfall =
                Math.round(Double.parseDouble(m.group(4)) * 1000) - Math.round(Double.parseDouble(m.group(3)) * 1000);
        long held = Math.round(Double.parseDouble(m.group(6)) * 1000);
        long guarantee = Math.round(Double.parseDouble(m.group(7)) * 1000);
        String who = after.key() + " (" + before.quota() + ", " + before.heldMilli() + " milli)";
        if (held <= guarantee) {
            violations.add(who + " was evicted for " + m.group(1) + " while " + after.team() + " held " + held
                    + " milli, not above its guarantee of " + guarantee + ": " + after.reason());
        }
        long evicted = evictedPerClaim.merge(after.reason(), before.heldMilli(), Long::sum);
        if (guarantee - (held - evicted) >= claimantShortfall) {
            violations.add("evictions for " + m.group(2) + " left " + after.team() + " " + (guarantee - held + evicted)
                    + " milli below its guarantee, not less than " + m.group(1) + "'s shortfall of " + claimantShortfall
                    + " (last: " + who + ")");
        }
        return violations;
    }

    int evictions() {
        return evictions;
    }
}

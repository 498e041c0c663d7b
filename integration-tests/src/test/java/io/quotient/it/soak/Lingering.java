package io.quotient.it.soak;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Conditions that may hold for a moment while the service works (a Job made before its record is read back, a
 * reservation pod between a fraction's exit and its release) but not for long: each becomes a violation once seen in
 * every look for longer than the settle time. Reported once per condition.
 */
final class Lingering {

    private final long settleMs;
    private final Map<String, Long> since = new HashMap<>();
    private final Set<String> reported = new HashSet<>();
    private Map<String, String> current = new HashMap<>();

    Lingering(long settleMs) {
        this.settleMs = settleMs;
    }

    /** Starts a look: conditions not seen again in it are forgotten. */
    void look() {
        current = new HashMap<>();
    }

    void seen(String key, String message) {
        current.put(key, message);
    }

    /** Ends a look at time {@code t}: the conditions seen in every look for more than the settle time. */
    List<String> endLook(long t) {
        since.keySet().retainAll(current.keySet());
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, String> condition : current.entrySet()) {
            long first = since.computeIfAbsent(condition.getKey(), k -> t);
            if (t - first > settleMs && reported.add(condition.getKey())) {
                violations.add(condition.getValue() + " (for " + (t - first) / 1000 + " s, since t=" + first + " ms)");
            }
        }
        return violations;
    }
}

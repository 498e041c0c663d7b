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
 *
 * <p>The settle clock stops from the start of a fault that takes the control plane or the leader away (API server
 * cut or restarted, etcd restarted, the leader killed or paused) until the probe sees the service deciding again
 * ({@code recovered}): in that window no service can write, and its length is reported as that fault's recovery
 * time, a figure of its own (and a recovery that never comes is a violation of its own). A condition still there
 * after the settle time of working time is a violation, however long the faults around it. Faults of the follower
 * leave the leader working and do not stop the clock. (The seed-1 long soak of 2026-11-26 counted an etcd restart's
 * 17 s without writes — the harness's own writes stalled too — against a PyTorchJob's adoption.)
 */
final class Lingering {

    private static final Set<String> STOPPING_THE_SERVICE =
            Set.of("api-cut", "api-restart", "etcd-restart", "kill-leader", "pause-leader");

    private final long settleMs;
    /** Per condition: the history time it was first seen and the working time then. */
    private final Map<String, long[]> since = new HashMap<>();

    private final Set<String> reported = new HashSet<>();
    private Map<String, String> current = new HashMap<>();
    private final Map<String, Integer> openFaults = new HashMap<>();
    private long stoppedMs;
    private long stoppedSince = -1;

    Lingering(long settleMs) {
        this.settleMs = settleMs;
    }

    /** A fault of {@code kind} began at {@code t}. */
    void faultStarted(String kind, long t) {
        if (STOPPING_THE_SERVICE.contains(kind)) {
            if (openFaults.values().stream().mapToInt(Integer::intValue).sum() == 0) {
                stoppedSince = t;
            }
            openFaults.merge(kind, 1, Integer::sum);
        }
    }

    /** The service decided again (or the probe gave up) at {@code t} after a fault of {@code kind}. */
    void faultOver(String kind, long t) {
        Integer open = openFaults.get(kind);
        if (open == null || open == 0) {
            return;
        }
        openFaults.put(kind, open - 1);
        if (openFaults.values().stream().mapToInt(Integer::intValue).sum() == 0) {
            stoppedMs += t - stoppedSince;
            stoppedSince = -1;
        }
    }

    /** History time less the time the clock stood still up to {@code t}. */
    private long working(long t) {
        return t - stoppedMs - (stoppedSince >= 0 ? t - stoppedSince : 0);
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
            long[] first = since.computeIfAbsent(condition.getKey(), k -> new long[] {t, working(t)});
            long lasted = working(t) - first[1];
            if (lasted > settleMs && reported.add(condition.getKey())) {
                violations.add(condition.getValue() + " (for " + lasted / 1000 + " s outside faults, "
                        + (t - first[0]) / 1000 + " s in all, since t=" + first[0] + " ms)");
            }
        }
        return violations;
    }
}

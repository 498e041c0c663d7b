package io.quotient.it.soak;

import io.quotient.it.soak.Observation.ObservedJob;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * When the quota state stored with a job ({@code status.quotaState}) can be taken as the one the leader's evictions go
 * by. The state is recomputed from what the team holds (the smallest set of its jobs covering its guarantee) and the
 * leader rewrites stale labels at the end of each re-queue pass (every 5 s; reclaim, every 15 s, runs the same pass;
 * at most 50 labels a pass). So a label is current once a pass has run after the last change of its team: the label
 * seen in the look before an eviction is trusted when, for {@link #STALENESS_MS} before that look, the team's
 * holdings (its jobs holding GPUs, and how much) and guarantee did not change, the Lease did not change hands and no
 * fault that can stop the leader's passes (every kind but those aimed at the follower) began or ended; and when
 * between that look and the eviction the team changed only by evictions (no job placed, resized, finished or deleted).
 * Otherwise the label may be stale, and the clause does not judge it (the two team-level clauses still do).
 */
final class QuotaLabelTrust {

    /** Three re-queue passes: a pass late on a loaded machine still refreshes within it. */
    static final long STALENESS_MS = 15_000;

    private final Map<String, Map<String, Long>> holdings = new HashMap<>();
    private final Map<String, Long> changedAt = new HashMap<>();
    private long leaderDisturbedAt;
    private Observation.LeaseState lease;
    private long previousT = Long.MIN_VALUE;
    private Set<String> trusted = Set.of();

    /** A team's guarantee changed: its cover may have. */
    void guaranteeChanged(String team, long t) {
        changedAt.put(team, t);
    }

    /** A fault began or ended: unless it hits only the follower, the leader's passes may have stopped. */
    void fault(String kind, long t) {
        if (kind == null || !kind.endsWith("-follower")) {
            leaderDisturbedAt = t;
        }
    }

    /** Takes the next look; afterwards {@link #trusted} tells whose labels in the previous look were current. */
    void observe(Observation obs) {
        Set<String> stable = new HashSet<>();
        long bound = previousT == Long.MIN_VALUE ? Long.MIN_VALUE : previousT - STALENESS_MS;
        if (leaderDisturbedAt <= bound && bound >= 0) {
            holdings.keySet().stream()
                    .filter(team -> changedAt.getOrDefault(team, 0L) <= bound)
                    .forEach(stable::add);
        }
        Map<String, Map<String, Long>> now = new HashMap<>();
        Map<String, ObservedJob> byKey = new HashMap<>();
        for (ObservedJob job : obs.jobs()) {
            byKey.put(job.key(), job);
            if (job.holds()) {
                now.computeIfAbsent(job.team(), t -> new HashMap<>()).put(job.key(), job.heldMilli());
            }
        }
        Set<String> teams = new HashSet<>(holdings.keySet());
        teams.addAll(now.keySet());
        for (String team : teams) {
            Map<String, Long> before = holdings.getOrDefault(team, Map.of());
            Map<String, Long> after = now.getOrDefault(team, Map.of());
            if (!before.equals(after)) {
                changedAt.put(team, obs.t());
            }
            if (!onlyEvicted(before, after, byKey)) {
                stable.remove(team);
            }
        }
        if (!Objects.equals(
                        lease == null ? null : lease.holder(),
                        obs.lease() == null ? null : obs.lease().holder())
                || lease == null
                || obs.lease() == null
                || lease.acquire() != obs.lease().acquire()
                || lease.transitions() != obs.lease().transitions()) {
            leaderDisturbedAt = obs.t();
        }
        lease = obs.lease();
        holdings.clear();
        holdings.putAll(now);
        previousT = obs.t();
        trusted = stable;
    }

    /** Whether the labels of this team's jobs in the look before the latest one were current. */
    boolean trusted(String team) {
        return trusted.contains(team);
    }

    /** Whether the team went from {@code before} to {@code after} by evictions only. */
    private static boolean onlyEvicted(
            Map<String, Long> before, Map<String, Long> after, Map<String, ObservedJob> jobs) {
        for (Map.Entry<String, Long> held : after.entrySet()) {
            if (!held.getValue().equals(before.get(held.getKey()))) {
                return false; // placed or resized since
            }
        }
        for (String key : before.keySet()) {
            ObservedJob job = jobs.get(key);
            boolean evicted =
                    job != null && job.reason() != null && job.reason().startsWith("Preempted");
            if (!after.containsKey(key) && !evicted) {
                return false; // finished, failed, deleted or re-queued from a lost node
            }
        }
        return true;
    }
}

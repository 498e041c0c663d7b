package io.quotient.it.soak;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The figures of a soak, from its history: operations and faults by kind, time to recover after each fault kind,
 * reclaim latency, leader takeovers.
 *
 * <p>Reclaim latency is measured two ways for a job that fits its team's guarantee when first seen waiting: the
 * team's (issue 16: "a team's guarantee regained after it asks"), from the job's acceptance until the team holds
 * what it held then plus the job's demand, or the job is placed; and the job's, until the job itself is placed,
 * which also counts the time the team spent on its own older waiting jobs first (queue order).
 */
final class SoakFigures {

    private record Fault(String kind, long t, String target) {}

    private final Map<String, Integer> operations = new TreeMap<>();
    /** Per Kubeflow kind: objects the API server accepted, creates refused (the webhook's answer or none), retries. */
    private final Map<String, int[]> kubeflow = new TreeMap<>();

    private final List<Fault> faults = new ArrayList<>();
    private final Map<String, List<Double>> recoveries = new TreeMap<>();
    /** A team's ask: it held less than {@code targetMilli} with a job waiting that fits its guarantee. */
    private record Ask(String team, long targetMilli, long since) {}

    private final Map<String, Ask> teamAsks = new HashMap<>();
    private final Map<String, Long> awaitingReclaim = new HashMap<>();
    private final List<Double> reclaimSeconds = new ArrayList<>();
    private final List<Double> teamReclaimSeconds = new ArrayList<>();
    private final List<Double> failoverSeconds = new ArrayList<>();
    private int withdrawnAsks;
    private int takeovers;
    private int evictions;

    void operation(String kind) {
        operations.merge(kind, 1, Integer::sum);
    }

    /** A create of a Kubeflow object ({@code op} deploy, or admit-retry for a notebook pod created again). */
    void kubeflow(String kind, String op, int status) {
        if (KubeflowOperations.WORKLOAD_KINDS.contains(kind) || KubeflowOperations.NOTEBOOK.equals(kind)) {
            int[] counts = kubeflow.computeIfAbsent(kind, k -> new int[3]);
            counts[status == 201 ? 0 : 1]++;
            if ("admit-retry".equals(op)) {
                counts[2]++;
            }
        }
    }

    Map<String, Integer> kubeflowCreated() {
        Map<String, Integer> created = new TreeMap<>();
        kubeflow.forEach((kind, counts) -> created.put(kind, counts[0]));
        return created;
    }

    void fault(String kind, long t, String target) {
        faults.add(new Fault(kind, t, target));
    }

    void recovered(String kind, double seconds) {
        recoveries.computeIfAbsent(kind, k -> new ArrayList<>()).add(seconds);
    }

    /** A job of {@code team} within its guarantee waits; the team asks to hold {@code targetMilli}. */
    void awaitReclaim(String job, String team, long targetMilli, long acceptedAt) {
        awaitingReclaim.put(job, acceptedAt);
        teamAsks.put(job, new Ask(team, targetMilli, acceptedAt));
    }

    void reclaimed(String job, long t) {
        Long since = awaitingReclaim.remove(job);
        if (since != null) {
            reclaimSeconds.add((t - since) / 1000.0);
        }
        Ask ask = teamAsks.remove(job);
        if (ask != null) {
            teamReclaimSeconds.add((t - ask.since()) / 1000.0);
        }
    }

    /**
     * What each team holds at {@code t}: the asks it now covers are met. The target is capped at the team's current
     * guarantee (a guarantee lowered meanwhile asks for less); an ask whose job is gone unplaced (its owner deleted it)
     * is withdrawn, not timed.
     */
    void teamsHold(Map<String, Long> heldMilli, Map<String, Long> guarantees, Set<String> jobsNow, long t) {
        teamAsks.entrySet().removeIf(entry -> {
            Ask ask = entry.getValue();
            if (!jobsNow.contains(entry.getKey())) {
                withdrawnAsks++;
                return true;
            }
            long target = Math.min(ask.targetMilli(), guarantees.getOrDefault(ask.team(), ask.targetMilli()));
            boolean met = heldMilli.getOrDefault(ask.team(), 0L) >= target;
            if (met) {
                teamReclaimSeconds.add((t - ask.since()) / 1000.0);
            }
            return met;
        });
    }

    void leader(LeaderTerms terms) {
        takeovers = terms.takeovers();
        failoverSeconds.clear();
        for (Fault fault : faults) {
            if (fault.kind().endsWith("-leader")) {
                long takeover = terms.firstWriteAfter(fault.t());
                if (takeover >= 0) {
                    failoverSeconds.add((takeover - fault.t()) / 1000.0);
                }
            }
        }
    }

    void evictions(int count) {
        evictions = count;
    }

    int operationCount() {
        return operations.values().stream().mapToInt(Integer::intValue).sum();
    }

    Map<String, Integer> faultsByKind() {
        Map<String, Integer> byKind = new TreeMap<>();
        faults.forEach(f -> byKind.merge(f.kind(), 1, Integer::sum));
        return byKind;
    }

    /** The figures as printed at the end of a run (and by {@link HistoryCheck}). */
    String describe() {
        StringBuilder text = new StringBuilder();
        text.append(String.format("[soak] operations: %d %s%n", operationCount(), operations));
        text.append(String.format("[soak] faults: %d %s%n", faults.size(), faultsByKind()));
        kubeflow.forEach((kind, counts) -> text.append(String.format(
                "[soak] kubeflow %s: %d created, %d creates" + " refused or unanswered (webhook, outage)%s%n",
                kind,
                counts[0],
                counts[1],
                counts[2] > 0 ? ", " + counts[2] + " of the creates were retries of a pod held at admission" : "")));
        recoveries.forEach((kind, seconds) -> text.append(String.format(
                "[soak] recovery after %s: n=%d p50 %.1f s, p99 %.1f s, max %.1f s%n",
                kind, seconds.size(), percentile(seconds, 0.50), percentile(seconds, 0.99), percentile(seconds, 1.0))));
        text.append(String.format(
                "[soak] leader failover (leader fault to the next Lease write): n=%d p50 %.1f s,"
                        + " p99 %.1f s; leader changes seen: %d%n",
                failoverSeconds.size(),
                percentile(failoverSeconds, 0.50),
                percentile(failoverSeconds, 0.99),
                takeovers));
        text.append(String.format(
                "[soak] reclaim latency (team: a job within its team's guarantee accepted, to the"
                        + " team holding what it held plus that job's demand): n=%d p50 %.1f s, p99 %.1f s, max %.1f s;"
                        + " not met: %d; withdrawn (job deleted unplaced): %d%n",
                teamReclaimSeconds.size(),
                percentile(teamReclaimSeconds, 0.50),
                percentile(teamReclaimSeconds, 0.99),
                percentile(teamReclaimSeconds, 1.0),
                teamAsks.size(),
                withdrawnAsks));
        text.append(String.format(
                "[soak] reclaim latency (job within its team's guarantee, accepted to placed):"
                        + " n=%d p50 %.1f s, p99 %.1f s, max %.1f s; never placed: %d; evictions seen: %d%n",
                reclaimSeconds.size(),
                percentile(reclaimSeconds, 0.50),
                percentile(reclaimSeconds, 0.99),
                percentile(reclaimSeconds, 1.0),
                awaitingReclaim.size(),
                evictions));
        return text.toString();
    }

    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}

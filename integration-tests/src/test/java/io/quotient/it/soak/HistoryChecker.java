package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.quotient.it.soak.Observation.ObservedJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a soak's history, entry by entry, against the invariants of issue 16; the same code runs during a soak
 * (fed each entry as it is written) and offline on a history file ({@link HistoryCheck}). It sees only what the
 * history holds: the operations with their answers, the faults, and what the API server showed.
 */
final class HistoryChecker {

    private static final Set<String> FINAL_PHASES = Set.of("Placed", "Running", "Pending", "Succeeded", "Failed");

    private long settleMs = 30_000;
    private long reclaimDeadlineMs = 60_000;
    private final Map<String, Long> guarantees = new HashMap<>();
    private final Map<String, Long> accepted = new HashMap<>();
    private final Set<String> deleteRequested = new HashSet<>();
    private final Map<String, ObservedJob> previous = new HashMap<>();
    private final Set<String> seenOnce = new HashSet<>();
    private final LinkedHashSet<String> violations = new LinkedHashSet<>();
    private final LeaderTerms leaderTerms = new LeaderTerms();
    private final EvictionChecks evictionChecks = new EvictionChecks();
    private final KubeflowChecks kubeflowChecks = new KubeflowChecks();
    private final QuotaLabelTrust labels = new QuotaLabelTrust();
    private final SoakFigures figures = new SoakFigures();
    private Lingering lingering = new Lingering(settleMs);
    private long calmAt = -1;
    private boolean reclaimChecked;
    private Observation last;
    private boolean ended;

    synchronized void accept(JsonObject entry) {
        String type = Observation.text(entry, "type");
        long t = entry.has("t") ? entry.get("t").getAsLong() : 0;
        switch (type == null ? "" : type) {
            case "start" -> start(entry);
            case "op" -> operation(entry, t);
            case "fault" -> {
                figures.fault(Observation.text(entry, "fault"), t, Observation.text(entry, "target"));
                labels.fault(Observation.text(entry, "fault"), t);
                lingering.faultStarted(Observation.text(entry, "fault"), t);
            }
            case "recovered" -> {
                figures.recovered(
                        Observation.text(entry, "fault"), entry.get("seconds").getAsDouble());
                labels.fault(Observation.text(entry, "fault"), t);
                lingering.faultOver(Observation.text(entry, "fault"), t);
            }
            case "unrecovered" -> {
                lingering.faultOver(Observation.text(entry, "fault"), t);
                violations.add("the service did not place a probe within "
                        + entry.get("seconds").getAsDouble() + " s after a fault of kind "
                        + Observation.text(entry, "fault") + " ended (t=" + t + " ms)");
            }
            case "calm" -> calmAt = t;
            case "obs" -> observe(Observation.fromJson(entry));
            case "final-invariants" ->
                Observation.array(entry, "violations").forEach(v -> violations.add("at the end: " + v.getAsString()));
            case "end" -> ended = true;
            default -> {}
        }
    }

    /** The violations found so far (the continuous checks). */
    synchronized List<String> violationsSoFar() {
        return List.copyOf(violations);
    }

    /** Runs the end-of-history checks; returns every violation and the figures. */
    synchronized Verdict finish() {
        if (last != null) {
            finalStates(last);
        }
        if (calmAt >= 0 && !reclaimChecked && last != null) {
            violations.add("the history ends " + (last.t() - calmAt) / 1000 + " s after faults stopped, before the"
                    + " reclaim deadline of " + reclaimDeadlineMs / 1000 + " s");
        }
        if (!ended) {
            violations.add("the history has no end entry: the run stopped early");
        }
        violations.addAll(leaderTerms.violations());
        figures.leader(leaderTerms);
        figures.evictions(evictionChecks.evictions());
        return new Verdict(List.copyOf(violations), figures);
    }

    /** Every violation, and the run's figures. */
    record Verdict(List<String> violations, SoakFigures figures) {}

    private void start(JsonObject entry) {
        settleMs = entry.get("settleMs").getAsLong();
        reclaimDeadlineMs = entry.get("reclaimMs").getAsLong();
        lingering = new Lingering(settleMs);
        entry.getAsJsonObject("teams")
                .entrySet()
                .forEach(e -> guarantees.put(e.getKey(), e.getValue().getAsLong()));
    }

    private void operation(JsonObject op, long t) {
        String kind = Observation.text(op, "op");
        figures.operation(kind);
        String key = Observation.text(op, "team") + "/" + Observation.text(op, "job");
        int status = op.has("status") ? op.get("status").getAsInt() : 0;
        switch (kind) {
            case "deploy", "admit-retry" -> {
                String deployed = Observation.text(op, "kind");
                figures.kubeflow(deployed, kind, status);
                if (KubeflowOperations.WORKLOAD_KINDS.contains(deployed)) {
                    if (status == 201) {
                        kubeflowChecks.created(key, t); // accepted once adopted: its GpuJob comes with a re-queue pass
                    }
                } else if (!KubeflowOperations.NOTEBOOK.equals(deployed) && (status == 201 || status == 202)) {
                    accepted.put(key, t);
                }
            }
            case "delete" -> deleteRequested.add(key);
            case "guarantee" -> {
                String team = Observation.text(op, "team");
                long milli = op.get("milli").getAsLong();
                labels.guaranteeChanged(team, t);
                guarantees.put(team, milli);
            }
            default -> {}
        }
    }

    private void observe(Observation obs) {
        leaderTerms.observe(obs);
        lingering.look();
        Map<String, ObservedJob> now = new HashMap<>();
        obs.jobs().forEach(j -> now.put(j.key(), j));
        capacity(obs);
        violations.addAll(kubeflowChecks.check(obs, now, accepted, lingering));
        lostJobs(obs, now);
        lingeringStates(obs, now);
        labels.observe(obs);
        evictionsAndLatency(obs, now);
        violations.addAll(lingering.endLook(obs.t()));
        if (calmAt >= 0 && !reclaimChecked && obs.t() >= calmAt + reclaimDeadlineMs) {
            reclaimChecked = true;
            reclaim(obs);
        }
        previous.clear();
        previous.putAll(now);
        last = obs;
    }

    /** No GPU's guaranteed share above 1000 milli; no node above its GPUs. */
    private void capacity(Observation obs) {
        Map<String, Long> perGpu = new HashMap<>();
        Map<String, List<String>> holders = new HashMap<>();
        for (ObservedJob job : obs.jobs()) {
            if (!job.holds()) {
                continue;
            }
            Map<String, List<int[]>> byNode = new LinkedHashMap<>();
            byNode.put(job.node(), job.gpus());
            job.others()
                    .forEach(other -> byNode.computeIfAbsent(other.node(), n -> new ArrayList<>())
                            .addAll(other.gpus().stream()
                                    .map(index -> new int[] {index, 1000})
                                    .toList()));
            byNode.forEach((node, held) -> {
                Integer gpus = obs.nodes().get(node);
                for (int[] gpu : held) {
                    String slot = node + "/" + gpu[0];
                    perGpu.merge(slot, (long) gpu[1], Long::sum);
                    holders.computeIfAbsent(slot, s -> new ArrayList<>()).add(job.key() + "=" + gpu[1]);
                    if (gpus != null && (gpu[0] < 0 || gpu[0] >= gpus)) {
                        violations.add("t=" + obs.t() + ": " + job.key() + " holds GPU " + gpu[0] + " of node " + node
                                + ", which has " + gpus + " GPUs");
                    }
                }
                if (gpus == null) {
                    lingering.seen(
                            "gone-node " + job.key() + " " + node,
                            job.key() + " is " + job.phase() + " on node " + node + ", which no longer exists");
                }
            });
        }
        perGpu.forEach((slot, milli) -> {
            if (milli > 1000) {
                violations.add(
                        "t=" + obs.t() + ": GPU " + slot + " guarantees " + milli + " milli: " + holders.get(slot));
            }
        });
    }

    /** Every accepted request has its GpuJob until its owner deletes it. */
    private void lostJobs(Observation obs, Map<String, ObservedJob> now) {
        accepted.forEach((key, at) -> {
            if (at < obs.t() && !deleteRequested.contains(key) && !now.containsKey(key)) {
                violations.add("t=" + obs.t() + ": " + key + " was accepted at t=" + at + " and is gone, though its"
                        + " owner never deleted it");
            }
        });
    }

    private void lingeringStates(Observation obs, Map<String, ObservedJob> now) {
        Set<String> fractionSlots = new HashSet<>();
        for (ObservedJob job : obs.jobs()) {
            if (job.holds()) {
                job.gpus().stream().filter(g -> g[1] < 1000).forEach(g -> fractionSlots.add(job.node() + "/" + g[0]));
            }
            if ("Pending".equals(job.phase())
                    && (job.reason() == null || job.reason().isBlank())) {
                lingering.seen("no-reason " + job.key(), job.key() + " is Pending without a reason");
            }
            if ("Preempted".equals(job.phase())) {
                lingering.seen("preempted " + job.key(), job.key() + " stays Preempted (its eviction never finished)");
            }
        }
        obs.livePods().forEach((key, count) -> {
            int replicas = now.containsKey(key) ? now.get(key).replicas() : 1;
            if (count > replicas) {
                lingering.seen(
                        "duplicate " + key,
                        key + " has " + count + " live pods for " + replicas + " replica(s) (duplicate workload)");
            }
        });
        violations.addAll(GangChecks.check(obs, lingering));
        Set<String> workloads = new HashSet<>();
        for (String owner : obs.workloads()) {
            if (!workloads.add(owner)) {
                lingering.seen("two-jobs " + owner, owner + " has two Jobs (duplicate workload)");
            }
            if (!now.containsKey(owner)) {
                lingering.seen("orphan " + owner, "the Job of " + owner + " has no GpuJob");
            }
        }
        for (String slot : obs.reservations()) {
            if (!fractionSlots.contains(slot)) {
                lingering.seen("reservation " + slot, "reservation pod on GPU " + slot + " holds no fraction");
            }
        }
    }

    private void evictionsAndLatency(Observation obs, Map<String, ObservedJob> now) {
        Map<String, Long> held = allocated(obs);
        for (ObservedJob job : now.values()) {
            ObservedJob before = previous.get(job.key());
            if (before != null && before.holds()) {
                violations.addAll(evictionChecks.check(before, job, labels.trusted(job.team())));
            }
            Long acceptedAt = accepted.get(job.key());
            if (acceptedAt != null
                    && seenOnce.add(job.key())
                    && "Pending".equals(job.phase())
                    && held.getOrDefault(job.team(), 0L) + job.demandMilli()
                            <= guarantees.getOrDefault(job.team(), 0L)) {
                figures.awaitReclaim(
                        job.key(), job.team(), held.getOrDefault(job.team(), 0L) + job.demandMilli(), acceptedAt);
            }
            if (job.holds()) {
                figures.reclaimed(job.key(), obs.t());
            }
        }
        figures.teamsHold(held, guarantees, now.keySet(), obs.t());
    }

    /** Once faults stop, a team with a waiting job that fits its guarantee gets it within the reclaim deadline. */
    private void reclaim(Observation obs) {
        Map<String, Long> held = allocated(obs);
        for (ObservedJob job : obs.jobs()) {
            long guarantee = guarantees.getOrDefault(job.team(), 0L);
            long holds = held.getOrDefault(job.team(), 0L);
            if ("Pending".equals(job.phase()) && job.demandMilli() > 0 && holds + job.demandMilli() <= guarantee) {
                violations.add("t=" + obs.t() + ", " + (obs.t() - calmAt) / 1000 + " s after faults stopped: "
                        + job.team() + " holds " + holds + " milli of its " + guarantee + " guarantee, yet "
                        + job.key() + " (" + job.demandMilli() + " milli) still waits: " + job.reason());
            }
        }
    }

    /** Whatever happened, each accepted job ends in a state that explains itself. */
    private void finalStates(Observation obs) {
        Map<String, ObservedJob> now = new HashMap<>();
        obs.jobs().forEach(j -> now.put(j.key(), j));
        accepted.forEach((key, at) -> {
            ObservedJob job = now.get(key);
            if (job != null && !FINAL_PHASES.contains(job.phase())) {
                violations.add("at the end " + key + " is " + job.phase());
            }
        });
    }

    private static Map<String, Long> allocated(Observation obs) {
        Map<String, Long> held = new HashMap<>();
        obs.jobs().stream().filter(ObservedJob::holds).forEach(j -> held.merge(j.team(), j.heldMilli(), Long::sum));
        return held;
    }
}

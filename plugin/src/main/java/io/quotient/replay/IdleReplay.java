package io.quotient.replay;

import io.quotient.core.idle.IdleDecider;
import io.quotient.core.idle.IdlePass;
import io.quotient.core.idle.IdleState;
import io.quotient.core.idle.IdleVerdict;
import io.quotient.core.idle.JobUtilisation;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.JobId;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The service's idle pass in simulated time: every {@link #INTERVAL} each watched running job's utilisation since the
 * previous pass (or since it started) is read from its idle profile, as the enforcers' counters give it to the leader,
 * and the core's {@link IdlePass} (the one {@code IdleReclaim} runs) records it and decides. Only releases change a
 * replay (warnings are words), so the decision is taken only when a watched job has been idle for its team's
 * {@code after}; the core would release nothing otherwise.
 */
final class IdleReplay {

    /** The service's {@code quotient.idle.interval} default (a test keeps them equal). */
    static final Duration INTERVAL = Duration.ofSeconds(30);

    private final IdlePass pass;
    private final Map<String, Team> teams;
    /** Until when each watched job's utilisation has been sampled. */
    private final Map<JobId, Long> sampledTo = new HashMap<>();

    private long decisions;
    private long lastPassMs = Long.MIN_VALUE;

    /** @param teams the teams as the scheduler sees them (their idle policies) */
    IdleReplay(Scheduler scheduler, Map<String, Team> teams) {
        this.pass = new IdlePass(new IdleDecider(scheduler));
        this.teams = teams;
    }

    /** Whether some team's idle policy watches anything (else the replay never runs the pass). */
    static boolean anyPolicy(Map<String, Team> teams) {
        return teams.values().stream().anyMatch(t -> !t.idle().isOff());
    }

    /** Whether the job's team watches jobs of its kind. */
    boolean watches(JobRun run) {
        Team team = teams.get(run.spec().team());
        return team != null && team.idle().watches(run.spec().kind());
    }

    /** Whether releasing the job re-queues it (its team's action is {@code preempt}) rather than stopping it. */
    boolean requeues(JobId job) {
        Team team = teams.get(job.team());
        return team != null && team.idle().action() == IdleAction.PREEMPT;
    }

    /**
     * The next pass: the first 30-second tick (from {@code originMs}, the first submission) after the last pass and
     * not before {@code nowMs}, while a watched job runs; {@link Long#MAX_VALUE} while none does.
     */
    long nextPass(Collection<JobRun> running, long originMs, long nowMs) {
        if (running.stream().noneMatch(this::watches)) {
            return Long.MAX_VALUE;
        }
        long interval = INTERVAL.toMillis();
        long from = lastPassMs == Long.MIN_VALUE ? nowMs : Math.max(nowMs, lastPassMs + 1);
        return originMs + Math.floorDiv(from - originMs + interval - 1, interval) * interval;
    }

    /** One pass at {@code nowMs} on {@code snapshot}: the verdicts that release a job's GPUs, idle longest first. */
    List<IdleVerdict> releases(SchedulingSnapshot snapshot, Map<JobId, JobRun> running, long nowMs) {
        lastPassMs = nowMs;
        Map<JobId, Double> watched = IdlePass.watched(snapshot);
        List<JobUtilisation> samples = new ArrayList<>();
        for (JobId id : watched.keySet()) {
            JobRun run = running.get(id);
            long from = Math.max(sampledTo.getOrDefault(id, Long.MIN_VALUE), run.segmentStartMs());
            if (from < nowMs) {
                double utilisation = run.job().profile().meanUtilisation(run.progressAt(from), run.progressAt(nowMs));
                samples.add(
                        new JobUtilisation(id, Instant.ofEpochMilli(from), Instant.ofEpochMilli(nowMs), utilisation));
                sampledTo.put(id, nowMs);
            }
        }
        sampledTo.keySet().retainAll(watched.keySet());
        pass.record(snapshot, samples);
        if (!pass.anyDue(snapshot)) {
            return List.of();
        }
        decisions++;
        return pass.decide(snapshot, this::requeues).stream()
                .filter(v -> v.state() == IdleState.RELEASE)
                .toList();
    }

    /** The idle decisions taken (passes where some watched job was due). */
    long decisions() {
        return decisions;
    }
}

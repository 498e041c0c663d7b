package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.idle.IdleVerdict;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.core.scheduling.UsageHistory;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The discrete-event replay. Simulated time jumps from event to event: a submission is decided at once by
 * {@link Scheduler#schedule} (as {@code DecisionService.deployNew}), a job finishes after its remaining running time,
 * and the periodic passes run on the policy's schedules: the re-queue and reclaim ticks call
 * {@link Scheduler#schedulePending} (as {@code DecisionService.requeuePending}, which also picks up the capacity of
 * finished jobs), the daily defragmentation {@link Scheduler#rebalance}. Plans are applied action by action as
 * {@code PlanApplier} applies them: a placement starts a job, an eviction stops it (losing the work since its last
 * checkpoint) and queues it again with its submission time, a move stops and restarts it elsewhere.
 *
 * <p>A pass whose state is unchanged since the previous pass (no submission, finish, placement or eviction since, and no
 * minimum runtime expired) is skipped: the scheduler would return the same plan, since it decides from the snapshot
 * alone. That is what lets weeks of 5-second ticks run in seconds.
 *
 * <p>When the policy runs the service's idle pass and a team's idle policy watches a running job, the pass runs every
 * 30 s ({@link IdleReplay}): a job released is stopped for good ({@code stop}) or preempted and re-queued
 * ({@code preempt}), and the queue is decided at once on the GPUs freed, as {@code DecisionService.releaseIdle} does.
 */
public final class ReplayEngine {

    /** How the {@code borrow} baseline shows running jobs to the scheduler: protected for longer than any trace. */
    private static final Duration FOREVER = Duration.ofDays(365L * 1000);

    private final List<NodeSpec> nodes;
    private final Set<String> nodeNames;
    private final Map<String, Team> teams;
    /** The configured teams: their idle thresholds say which running time is idle, for every policy. */
    private final Map<String, Team> configured;
    /**
     * Per team name, the very string the scheduler's teams are keyed by: jobs name their team with it, so that the
     * core's many lookups by team find it at once instead of comparing the trace's copy character by character.
     */
    private final Map<String, String> teamNames = new HashMap<>();

    private final ReplayPolicy policy;
    private final long capacityMilli;

    /** @param teams the configured teams (the policy derives the ones its scheduler sees) */
    public ReplayEngine(List<NodeSpec> nodes, Map<String, Team> teams, ReplayPolicy policy) {
        this.nodes = List.copyOf(nodes);
        this.nodeNames = nodes.stream().map(NodeSpec::name).collect(Collectors.toUnmodifiableSet());
        this.capacityMilli = nodes.stream().mapToLong(n -> n.gpuCount() * 1000L).sum();
        this.teams = policy.teams(teams, capacityMilli);
        this.configured = Map.copyOf(teams);
        this.teams.keySet().forEach(name -> teamNames.put(name, name));
        this.policy = policy;
    }

    /** Replays the jobs (sorted by submission) to the end: every job finished, or nothing left that could run. */
    public ReplayOutcome run(List<ReplayJob> jobs, ReplayListener listener) {
        return new Run(jobs, listener).toEnd();
    }

    private record Completion(long atMs, long order, JobRun run, int epoch) {}

    /** One replay's mutable state. */
    private final class Run implements ReplayState {
        private final List<ReplayJob> jobs;
        private final ReplayListener listener;
        private final Scheduler scheduler = policy.newScheduler();
        private final PassSchedule passes = policy.passes();
        private final Map<JobId, JobRun> byId = new HashMap<>();
        private final List<JobRun> all = new ArrayList<>();
        private final Map<JobId, JobRun> running = new LinkedHashMap<>();
        private final WaitingQueue waiting = new WaitingQueue();
        private final PriorityQueue<Completion> completions = new PriorityQueue<>(
                (a, b) -> a.atMs != b.atMs ? Long.compare(a.atMs, b.atMs) : Long.compare(a.order, b.order));
        private final long originMs;
        private long nowMs;
        private long order;
        private long version;
        private long decisions;
        private int next;
        /** The state changed since the last pass: the next tick decides again. */
        private boolean changed;

        private long lastPassMs = Long.MIN_VALUE;
        private long nextDefragmentMs;
        /** The replay's own time, for the parts of the core that read a clock: moved with {@link #nowMs}. */
        private final MutableClock clock = new MutableClock(Instant.EPOCH);
        /** The service's idle pass, when the policy runs it and a team has an idle policy; null otherwise. */
        private final IdleReplay idle =
                policy.releasesIdle() && IdleReplay.anyPolicy(teams) ? new IdleReplay(scheduler, teams) : null;
        /** The teams' decayed past borrowing, kept as the service keeps it, in simulated time. */
        private final UsageHistory history = new UsageHistory(policy.fairShare(), clock);

        Run(List<ReplayJob> jobs, ReplayListener listener) {
            this.jobs = jobs;
            this.listener = listener;
            this.originMs = jobs.isEmpty() ? 0 : jobs.get(0).submitMs();
            this.nowMs = originMs;
            clock.set(Instant.ofEpochMilli(originMs));
            this.nextDefragmentMs = passes.nextDefragment(originMs);
        }

        ReplayOutcome toEnd() {
            long started = System.nanoTime();
            while (true) {
                long arrival = next < jobs.size() ? jobs.get(next).submitMs() : Long.MAX_VALUE;
                long completion = nextCompletion();
                long pass = nextPass();
                long defragment = running.isEmpty() ? Long.MAX_VALUE : nextDefragmentMs;
                long idlePass = nextIdlePass();
                long t = Math.min(Math.min(arrival, completion), Math.min(Math.min(pass, idlePass), defragment));
                if (t == Long.MAX_VALUE) {
                    break;
                }
                advanceTo(t);
                if (completion == t) {
                    complete(completions.poll().run);
                } else if (arrival == t) {
                    arrive(jobs.get(next++));
                } else if (pass == t) {
                    pass();
                } else if (idlePass == t) {
                    idlePass();
                } else {
                    defragment();
                }
            }
            listener.ended(nowMs, this);
            long idleDecisions = idle == null ? 0 : idle.decisions();
            return new ReplayOutcome(policy.name(), all, decisions + idleDecisions, System.nanoTime() - started, nowMs);
        }

        private long nextCompletion() {
            while (!completions.isEmpty()
                    && completions.peek().epoch != completions.peek().run.epoch()) {
                completions.poll(); // the segment it ended was stopped
            }
            return completions.isEmpty() ? Long.MAX_VALUE : completions.peek().atMs;
        }

        private long nextPass() {
            if (waiting.isEmpty()) {
                return Long.MAX_VALUE;
            }
            if (changed) {
                return passes.nextTick(originMs, lastPassMs == nowMs ? nowMs + 1 : nowMs);
            }
            long expiry = nextProtectionExpiry();
            return expiry == Long.MAX_VALUE ? expiry : passes.nextTick(originMs, expiry);
        }

        /** When the first running job's minimum runtime ends (then more may be taken back). */
        private long nextProtectionExpiry() {
            if (!policy.reclaims()) {
                return Long.MAX_VALUE;
            }
            long first = Long.MAX_VALUE;
            for (JobRun r : running.values()) {
                long ends =
                        r.placement().startedAt().plus(r.spec().minRuntime()).toEpochMilli();
                if (r.spec().preemptible() && ends > nowMs) {
                    first = Math.min(first, ends);
                }
            }
            return first;
        }

        private long nextIdlePass() {
            return idle == null ? Long.MAX_VALUE : idle.nextPass(running.values(), originMs, nowMs);
        }

        /**
         * The idle pass: releases the idle jobs the core decides to release (stopped for good or preempted, as their
         * team's action says), then the queue takes the GPUs freed.
         */
        private void idlePass() {
            List<IdleVerdict> released = idle.releases(snapshot(), running, nowMs);
            if (released.isEmpty()) {
                return;
            }
            for (IdleVerdict verdict : released) {
                JobRun run = running.remove(verdict.job());
                if (run == null) {
                    continue;
                }
                verdict.waiter().map(byId::get).ifPresent(JobRun::waitedForIdle);
                PlacedJob from = run.placement();
                boolean requeued = idle.requeues(verdict.job());
                run.releasedIdle(nowMs, !requeued);
                if (requeued) {
                    verdict.requeuedAt().ifPresent(run::requeuedAfterIdle);
                    long lost = run.stop(nowMs, false);
                    waiting.add(run);
                    listener.stopped(run, from, nowMs, false, lost);
                } else {
                    listener.stoppedIdle(run, from, nowMs);
                }
            }
            touch();
            decisions++;
            apply(scheduler.schedulePending(snapshot()));
        }

        private void advanceTo(long t) {
            if (t > nowMs) {
                listener.interval(nowMs, t, this);
                nowMs = t;
                clock.set(Instant.ofEpochMilli(t));
            }
        }

        private void arrive(ReplayJob job) {
            String team = policy.schedulingTeam(job.team());
            JobSpec spec = job.spec(teamNames.getOrDefault(team, team));
            if (byId.containsKey(spec.id())) {
                throw new IllegalArgumentException(
                        "job " + job.name() + " appears twice in the trace; names must be unique");
            }
            if (!teams.containsKey(spec.team())) {
                throw new IllegalArgumentException("job " + job.name() + " is of team " + job.team()
                        + ", which the teams file does not define; add it (guaranteedGpus: 0 to let it only borrow)");
            }
            Team own = configured.get(job.team());
            JobRun run =
                    new JobRun(job, spec, job.gpuMilli(nodes), (own == null ? IdlePolicy.OFF : own.idle()).threshold());
            byId.put(spec.id(), run);
            all.add(run);
            SchedulingSnapshot snapshot = snapshot();
            waiting.add(run);
            touch();
            listener.arrived(run, nowMs);
            decisions++;
            apply(scheduler.schedule(snapshot, spec));
        }

        private void complete(JobRun run) {
            running.remove(run.spec().id());
            PlacedJob from = run.placement();
            run.finish(nowMs);
            touch();
            listener.finished(run, from, nowMs);
        }

        private void pass() {
            lastPassMs = nowMs;
            changed = false;
            decisions++;
            if (apply(scheduler.schedulePending(snapshot()))) {
                changed = true;
            }
        }

        private void defragment() {
            nextDefragmentMs = passes.nextDefragment(nowMs);
            decisions++;
            apply(scheduler.rebalance(snapshot(), passes.defragmentShare()));
        }

        /** Applies the plan's actions in order; returns whether any changed what runs. */
        private boolean apply(Plan plan) {
            boolean any = false;
            for (PlanAction action : plan.actions()) {
                if (action instanceof PlanAction.KeepPending) {
                    // most actions of a pass over a long queue: nothing to apply
                    continue;
                }
                JobRun run = byId.get(action.job());
                if (action instanceof PlanAction.Place p && waiting.remove(p.job()) != null) {
                    start(run, p.placement(), false);
                    any = true;
                } else if (action instanceof PlanAction.Evict && running.remove(action.job()) != null) {
                    PlacedJob from = run.placement();
                    long lost = run.stop(nowMs, false);
                    waiting.add(run);
                    touch();
                    listener.stopped(run, from, nowMs, false, lost);
                    any = true;
                } else if (action instanceof PlanAction.Move m && running.containsKey(m.job())) {
                    running.remove(m.job());
                    PlacedJob from = run.placement();
                    long lost = run.stop(nowMs, true);
                    listener.stopped(run, from, nowMs, true, lost);
                    start(run, m.to(), true);
                    any = true;
                } else if (action instanceof PlanAction.Grow) {
                    throw new IllegalStateException(
                            "the replay has no elastic gangs, yet the plan grows " + action.job());
                }
            }
            return any;
        }

        private void start(JobRun run, PlacedJob placement, boolean afterMove) {
            run.start(placement, nowMs);
            running.put(run.spec().id(), run);
            completions.add(new Completion(run.completesAtMs(), order++, run, run.epoch()));
            touch();
            listener.started(run, nowMs, afterMove);
        }

        private void touch() {
            version++;
            changed = true;
        }

        private SchedulingSnapshot snapshot() {
            // immutable lists, which the snapshot keeps as they are (a list it is given to copy was copied twice): the
            // running jobs filled as an array and wrapped once, the queue's the waiting queue's own (WaitingQueue), as
            // the queue runs to thousands of jobs at every decision
            PlacedJob[] placedJobs = new PlacedJob[running.size()];
            int i = 0;
            for (JobRun r : running.values()) {
                placedJobs[i++] = policy.reclaims() ? r.placement() : protectedForever(r.placement());
            }
            List<PlacedJob> placed = List.of(placedJobs);
            List<PendingJob> pending = waiting.pending();
            SchedulingSnapshot snapshot =
                    new SchedulingSnapshot(nodes, nodeNames, placed, pending, teams, Instant.ofEpochMilli(nowMs));
            if (!history.settings().decays()) {
                return snapshot;
            }
            history.record(UsageHistory.borrowedMilli(teams, placed, nodes));
            return snapshot.withPastBorrowed(history.decayedMilli());
        }

        private PlacedJob protectedForever(PlacedJob p) {
            JobSpec s = p.spec();
            JobSpec kept = new JobSpec(
                    s.id(),
                    s.gpu(),
                    s.cpuMilli(),
                    s.memoryMib(),
                    s.allowedModels(),
                    s.priority(),
                    s.preemptible(),
                    FOREVER,
                    s.gang(),
                    s.kind());
            return new PlacedJob(
                    kept, p.node(), p.gpuIndices(), p.milliPerGpu(), p.quotaState(), p.startedAt(), p.otherReplicas());
        }

        @Override
        public List<NodeSpec> nodes() {
            return nodes;
        }

        @Override
        public long capacityMilli() {
            return capacityMilli;
        }

        @Override
        public Collection<JobRun> running() {
            return running.values();
        }

        @Override
        public Collection<JobRun> waiting() {
            return waiting.runs();
        }

        @Override
        public long version() {
            return version;
        }
    }
}

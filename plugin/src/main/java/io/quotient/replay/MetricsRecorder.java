package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.TeamShares;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures a replay as it runs (a {@link ReplayListener}) against the configured teams: the time integrals per team
 * and for the cluster, the hourly fairness; {@link #result} adds the per-job measures from the outcome.
 */
public final class MetricsRecorder implements ReplayListener {

    private final Map<String, Team> teams;
    private final List<String> names;
    private final Map<String, TeamTally> tallies = new LinkedHashMap<>();
    private final TeamTally cluster = new TeamTally(Long.MIN_VALUE);
    private final HourlyFairness fairness;
    private final ModelAllocation models;
    private final GroupTallies groups;
    private long heldMilli;
    private long sharesVersion = -1;
    private long[] shares;
    /** Whether the quotas name model groups, so that the scheduler's fair shares are per group. */
    private final boolean perGroup;

    /**
     * @param teams the configured teams; a team of the trace not among them is measured with no guarantee
     * @param nodes the cluster (its GPU models are measured apart)
     */
    public MetricsRecorder(Map<String, Team> teams, List<ReplayJob> jobs, List<NodeSpec> nodes) {
        this.teams = new LinkedHashMap<>(teams);
        jobs.forEach(j -> this.teams.computeIfAbsent(j.team(), n -> Team.of(n, 0)));
        this.names = List.copyOf(this.teams.keySet());
        this.teams.forEach((n, t) -> tallies.put(n, new TeamTally(t.guaranteedMilli())));
        this.fairness = new HourlyFairness(names);
        this.models = new ModelAllocation(nodes);
        this.groups = new GroupTallies(this.teams, nodes);
        this.perGroup = TeamShares.perModelGroup(this.teams);
    }

    @Override
    public void interval(long fromMs, long toMs, ReplayState state) {
        long dt = toMs - fromMs;
        long free = state.capacityMilli() - heldMilli;
        cluster.integrate(fromMs, dt, free, () -> 0);
        long[] share = shares(state);
        long[] held = new long[names.size()];
        Takeable takeable = new Takeable(state, fromMs, free);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            TeamTally t = tallies.get(name);
            t.integrate(fromMs, dt, free, () -> takeable.byOthersThan(name), groups.of(name));
            held[i] = t.heldMilli();
        }
        fairness.integrate(fromMs, toMs, held, share);
        models.integrate(dt, !state.waiting().isEmpty());
        groups.integrate(fromMs, dt, free);
    }

    /**
     * The teams' fair shares, recomputed only when the state changed, and with them each team's entitlement to its
     * guarantee ({@link TeamTally#entitledTo}), both by the scheduler's own division. Where the quotas name model
     * groups the scheduler divides each group's GPUs on their own; a team's share is then its shares summed over the
     * groups, as the service reports it.
     */
    private long[] shares(ReplayState state) {
        if (sharesVersion != state.version()) {
            Map<String, Long> demand = new HashMap<>();
            tallies.forEach((n, t) -> demand.put(n, t.demandMilli()));
            Map<String, Long> share = perGroup
                    ? GroupFairShares.of(teams, state)
                    : TeamShares.fairShares(teams, demand, state.capacityMilli());
            TeamShares.guaranteed(teams, demand, state.capacityMilli())
                    .forEach((n, milli) -> tallies.get(n).entitledTo(milli));
            shares = new long[names.size()];
            for (int i = 0; i < names.size(); i++) {
                shares[i] = share.getOrDefault(names.get(i), 0L);
            }
            sharesVersion = state.version();
        }
        return shares;
    }

    @Override
    public void arrived(JobRun run, long nowMs) {
        waits(run);
        groups.arrived(run);
    }

    @Override
    public void started(JobRun run, long nowMs, boolean afterMove) {
        if (!afterMove) {
            tallies.get(run.job().team()).stopsWaiting(run.demandMilli());
            cluster.stopsWaiting(run.demandMilli());
        }
        hold(run, run.placement().gpuMilli());
        models.holds(run.job().team(), run.placement(), 1);
        groups.started(run, afterMove);
    }

    @Override
    public void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lostMilliMs) {
        hold(run, -from.gpuMilli());
        models.holds(run.job().team(), from, -1);
        groups.stopped(run, from, moved);
        if (!moved) {
            waits(run);
        }
    }

    @Override
    public void finished(JobRun run, PlacedJob from, long nowMs) {
        hold(run, -from.gpuMilli());
        models.holds(run.job().team(), from, -1);
        groups.finished(run, from);
    }

    @Override
    public void stoppedIdle(JobRun run, PlacedJob from, long nowMs) {
        // gone for good, as a finished job: its model and its guarantee's group no longer hold its GPUs (they kept
        // them to the end of the replay before)
        hold(run, -from.gpuMilli());
        models.holds(run.job().team(), from, -1);
        groups.finished(run, from);
    }

    @Override
    public void ended(long endMs, ReplayState state) {
        tallies.values().forEach(t -> t.closeDeficit(endMs));
        fairness.end();
        groups.ended(endMs);
    }

    /** The metrics of the finished replay: the integrals recorded, with the per-job measures of its outcome. */
    public ReplayResult result(ReplayOutcome outcome, List<NodeSpec> nodes) {
        List<Long> allTimes = new ArrayList<>();
        double deficit = 0;
        double blocked = 0;
        for (TeamTally t : tallies.values()) {
            allTimes.addAll(t.timesToGuaranteeMs());
            deficit += t.deficitGpuHours();
            blocked += t.blockedDeficitGpuHours();
        }
        long capacity = nodes.stream().mapToLong(n -> n.gpuCount() * 1000L).sum();
        Metrics overall = metrics(outcome.runs(), cluster, capacity, allTimes, deficit, blocked, fairness.meanIndex());
        Map<String, Metrics> perTeam = new LinkedHashMap<>();
        Map<String, Long> guarantees = new LinkedHashMap<>();
        for (String name : names) {
            TeamTally t = tallies.get(name);
            List<JobRun> runs = outcome.runs().stream()
                    .filter(r -> r.job().team().equals(name))
                    .toList();
            perTeam.put(
                    name,
                    metrics(
                            runs,
                            t,
                            capacity,
                            t.timesToGuaranteeMs(),
                            t.deficitGpuHours(),
                            t.blockedDeficitGpuHours(),
                            Double.NaN));
            guarantees.put(name, teams.get(name).guaranteedMilli());
        }
        List<Double> delays = outcome.runs().stream()
                .filter(r -> r.firstStartMs() >= 0)
                .map(r -> (r.firstStartMs() - r.job().submitMs()) / 1000.0)
                .toList();
        return new ReplayResult(
                outcome.policy(),
                nodes.size(),
                capacity / 1000,
                overall,
                perTeam,
                outcome.decisions(),
                outcome.decisionsPerSecond(),
                outcome.wallNanos() / 1e9,
                guarantees,
                fairness.hourStarts(),
                fairness.gpusPerHour(),
                delays,
                fairness.days(),
                models.result(),
                groups.result());
    }

    private static Metrics metrics(
            List<JobRun> runs,
            TeamTally tally,
            long capacity,
            List<Long> timesToGuarantee,
            double deficitGpuHours,
            double blockedDeficitGpuHours,
            double jain) {
        List<Long> delays = new ArrayList<>();
        List<Long> completions = new ArrayList<>();
        long preemptions = 0;
        long moves = 0;
        double lost = 0;
        double delivered = 0;
        int finished = 0;
        for (JobRun r : runs) {
            if (r.firstStartMs() >= 0) {
                delays.add(r.firstStartMs() - r.job().submitMs());
            }
            if (r.finished()) {
                completions.add(r.finishMs() - r.job().submitMs());
                finished++;
            }
            preemptions += r.preemptions();
            moves += r.moves();
            lost += r.lostMilliMs();
            delivered += r.deliveredMilliMs();
        }
        double gpuHour = 1000.0 * 3_600_000;
        return new Metrics(
                runs.size(),
                finished,
                tally.allocationPctWhileWaiting(capacity),
                Quantiles.ofMillis(delays),
                Quantiles.ofMillis(completions),
                Quantiles.ofMillis(timesToGuarantee),
                deficitGpuHours,
                blockedDeficitGpuHours,
                preemptions,
                moves,
                lost / gpuHour,
                delivered / gpuHour,
                tally.fragmentationJobHours(),
                jain,
                IdleFigures.of(runs));
    }

    private void hold(JobRun run, long milli) {
        tallies.get(run.job().team()).holds(milli);
        cluster.holds(milli);
        heldMilli += milli;
    }

    private void waits(JobRun run) {
        tallies.get(run.job().team()).waits(run.demandMilli());
        cluster.waits(run.demandMilli());
    }

    /**
     * What a team below its target could get at most at one instant: the free GPUs and what the other teams hold in
     * jobs that may be preempted now (preemptible, past their minimum runtime). Counted once per interval, and only
     * when some team asks.
     */
    private final class Takeable {
        private final ReplayState state;
        private final Instant now;
        private final long free;
        private Map<String, Long> byTeam;
        private long total;

        Takeable(ReplayState state, long nowMs, long free) {
            this.state = state;
            this.now = Instant.ofEpochMilli(nowMs);
            this.free = free;
        }

        long byOthersThan(String team) {
            if (byTeam == null) {
                byTeam = new HashMap<>();
                for (JobRun r : state.running()) {
                    PlacedJob p = r.placement();
                    if (r.spec().preemptible() && !now.isBefore(p.protectedUntil())) {
                        byTeam.merge(r.job().team(), p.gpuMilli(), Long::sum);
                        total += p.gpuMilli();
                    }
                }
            }
            return free + total - byTeam.getOrDefault(team, 0L);
        }
    }
}

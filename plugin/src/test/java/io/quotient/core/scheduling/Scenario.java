package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A scenario table in the style of KAI-Scheduler's and Kueue's scheduler tests: nodes, teams, running jobs with
 * their placements, then pending jobs; after the scheduler's plans, the sets of running and pending jobs.
 */
final class Scenario {

    final ClusterRun run;

    private Scenario(List<NodeSpec> nodes) {
        run = new ClusterRun(QuotaScheduler.withDefaults(), nodes);
    }

    /** Nodes named node-0, node-1, ... with the given GPU counts. */
    static Scenario nodes(int... gpus) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < gpus.length; i++) {
            nodes.add(new NodeSpec("node-" + i, 128_000, 1_048_576, gpus[i], ClusterRun.MODEL, ClusterRun.GPU_MIB));
        }
        return new Scenario(nodes);
    }

    /** The given nodes (of any GPU models). */
    static Scenario on(List<NodeSpec> nodes) {
        return new Scenario(nodes);
    }

    Scenario team(Team team) {
        run.team(team);
        return this;
    }

    Scenario team(String name, double guaranteed, double weight) {
        return team(new Team(name, Math.round(guaranteed * 1000), Team.UNLIMITED, weight, 0));
    }

    /** A whole-GPU job running on the given GPUs of a node for an hour. */
    Scenario running(String team, String name, String node, int priority, int... gpus) {
        return put(spec(team, name, new GpuRequest.WholeGpus(gpus.length), priority), node, 1000, gpus);
    }

    /** A fraction running on one GPU of a node for an hour. */
    Scenario runningFraction(String team, String name, String node, int milli, int gpu) {
        return put(spec(team, name, new GpuRequest.Fraction(milli, milli, 1), 0), node, milli, gpu);
    }

    private Scenario put(JobSpec spec, String node, int milli, int... gpus) {
        PlacedJob job = new PlacedJob(
                spec,
                node,
                Arrays.stream(gpus).boxed().toList(),
                milli,
                QuotaState.OVER_QUOTA,
                run.now.minus(Duration.ofHours(1)));
        run.placed.put(job.id(), job);
        return this;
    }

    /** Deploys the jobs one after another, as users do. */
    Scenario deploy(JobSpec... jobs) {
        for (JobSpec j : jobs) {
            run.deploy(j);
            run.advance(Duration.ofSeconds(1));
        }
        return this;
    }

    /** {@code count} jobs of one GPU each, named prefix0, prefix1, ... */
    Scenario deployMany(String team, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            deploy(ClusterRun.job(team, prefix + i, 1));
        }
        return this;
    }

    /** Re-queues until a plan changes nothing (at most {@code rounds} times); returns the plans' evictions. */
    int settle(int rounds) {
        int evictions = 0;
        for (int i = 0; i < rounds; i++) {
            run.advance(Duration.ofMinutes(1));
            Plan plan = run.requeue();
            evictions += plan.actionsOf(PlanAction.Evict.class).size();
            if (plan.actionsOf(PlanAction.Place.class).isEmpty()
                    && plan.actionsOf(PlanAction.Evict.class).isEmpty()) {
                break;
            }
        }
        return evictions;
    }

    static JobSpec job(String team, String name, int gpus, int priority) {
        return spec(team, name, new GpuRequest.WholeGpus(gpus), priority);
    }

    static JobSpec spec(String team, String name, GpuRequest gpu, int priority) {
        return new JobSpec(new JobId(team, name), gpu, 1000, 1024, Set.of(), priority, true, Duration.ZERO);
    }

    /** "team/name" of the running jobs, sorted. */
    Set<String> running() {
        return run.placed.keySet().stream().map(JobId::toString).collect(Collectors.toCollection(TreeSet::new));
    }

    Set<String> pending() {
        return run.pending.keySet().stream().map(JobId::toString).collect(Collectors.toCollection(TreeSet::new));
    }

    static int[] gpus(int from, int count) {
        return IntStream.range(from, from + count).toArray();
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A tiny in-memory cluster for scheduling tests: deploys jobs through a scheduler and applies its plans the way the
 * service does, action by action (placements hold capacity, evicted jobs go back to the queue), checking after every
 * action that no GPU, CPU or memory is over-allocated.
 */
final class ClusterRun {

    static final String MODEL = "A100-SXM4-80GB";
    static final long GPU_MIB = 81_920;

    final Scheduler scheduler;
    final List<NodeSpec> nodes;
    final Map<String, Team> teams = new LinkedHashMap<>();
    final Map<JobId, PlacedJob> placed = new LinkedHashMap<>();
    final Map<JobId, PendingJob> pending = new LinkedHashMap<>();
    final Map<JobId, String> reasons = new LinkedHashMap<>();
    final List<Plan> plans = new ArrayList<>();
    Set<String> fractionReady;
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    ClusterRun(Scheduler scheduler, List<NodeSpec> nodes) {
        this.scheduler = scheduler;
        this.nodes = nodes;
        this.fractionReady = new HashSet<>(nodes.stream().map(NodeSpec::name).toList());
    }

    /** The problem statement's cluster: 4 nodes × 10 GPUs. */
    static ClusterRun fourByTen() {
        return new ClusterRun(QuotaScheduler.withDefaults(), nodes(4, 10));
    }

    static List<NodeSpec> nodes(int count, int gpus) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            nodes.add(new NodeSpec("node-" + i, 128_000, 1_048_576, gpus, MODEL, GPU_MIB));
        }
        return nodes;
    }

    static JobSpec job(String team, String name, int gpus) {
        return new JobSpec(
                new JobId(team, name), new GpuRequest.WholeGpus(gpus), 1000, 1024, Set.of(), 0, true, Duration.ZERO);
    }

    /** {@code replicas} × {@code gpus} whole GPUs, one replica per node, all or nothing. */
    static JobSpec gang(String team, String name, int replicas, int minReplicas, int gpus) {
        return withPriority(0, team, name, gpus, new Gang(replicas, minReplicas));
    }

    /** Whole GPUs of a priority within the team, per replica of the gang ({@link Gang#SINGLE}: one job). */
    static JobSpec withPriority(int priority, String team, String name, int gpus, Gang gang) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(),
                priority,
                true,
                Duration.ZERO,
                gang);
    }

    static JobSpec fraction(String team, String name, int milli) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.Fraction(milli, milli, 1),
                500,
                512,
                Set.of(),
                0,
                true,
                Duration.ZERO);
    }

    /** An observed job on {@code count} GPUs of a node from {@code firstGpu}, started {@code ran} ago. */
    void observe(JobSpec spec, String node, int firstGpu, int count, Duration ran) {
        placed.put(
                spec.id(),
                new PlacedJob(
                        spec,
                        node,
                        IntStream.range(firstGpu, firstGpu + count).boxed().toList(),
                        1000,
                        QuotaState.OVER_QUOTA,
                        now.minus(ran)));
    }

    ClusterRun team(String name, int guaranteedGpus) {
        teams.put(name, Team.of(name, guaranteedGpus));
        return this;
    }

    ClusterRun team(Team team) {
        teams.put(team.name(), team);
        return this;
    }

    /** The snapshot the latest plan was made from. */
    SchedulingSnapshot lastSnapshot;

    /** Per team, its decayed past borrowing in milli, as the service passes it from its usage history. */
    Map<String, Double> pastBorrowed = Map.of();

    SchedulingSnapshot snapshot() {
        lastSnapshot = new SchedulingSnapshot(
                nodes,
                fractionReady,
                List.copyOf(placed.values()),
                List.copyOf(pending.values()),
                teams,
                now,
                pastBorrowed);
        return lastSnapshot;
    }

    /** A 1-GPU job of the team, running for an hour on the node's GPU, recorded as borrowed. */
    void running(String team, String name, String node, int gpu) {
        PlacedJob job = new PlacedJob(
                job(team, name, 1), node, List.of(gpu), 1000, QuotaState.OVER_QUOTA, now.minus(Duration.ofHours(1)));
        placed.put(job.id(), job);
    }

    /** A new job: decided alone, as the service decides a deploy. */
    Plan deploy(JobSpec job) {
        Plan plan = scheduler.schedule(snapshot(), job);
        pending.put(job.id(), new PendingJob(job, now));
        return apply(plan);
    }

    Plan deployAll(JobSpec... jobs) {
        List<PlanAction> all = new ArrayList<>();
        for (JobSpec j : jobs) {
            all.addAll(deploy(j).actions());
        }
        return new Plan(all);
    }

    /** The periodic re-queue (and reclaim). */
    Plan requeue() {
        return apply(scheduler.schedulePending(snapshot()));
    }

    Plan rebalance(double share) {
        return apply(scheduler.rebalance(snapshot(), share));
    }

    /** The growth of elastic gangs that follows the re-queue. */
    Plan grow() {
        return apply(scheduler.grow(snapshot()));
    }

    void advance(Duration d) {
        now = now.plus(d);
    }

    void finish(String team, String name) {
        placed.remove(new JobId(team, name));
    }

    Plan apply(Plan plan) {
        plans.add(plan);
        for (PlanAction a : plan.actions()) {
            if (a instanceof PlanAction.Place p) {
                pending.remove(p.job());
                placed.put(p.job(), p.placement());
            } else if (a instanceof PlanAction.Evict e) {
                PlacedJob gone = placed.remove(e.job());
                pending.put(e.job(), new PendingJob(gone.spec(), now));
                reasons.put(e.job(), e.reason());
            } else if (a instanceof PlanAction.KeepPending k) {
                reasons.put(k.job(), k.reason());
            } else if (a instanceof PlanAction.Move m) {
                placed.put(m.job(), m.to());
            } else if (a instanceof PlanAction.Grow g) {
                placed.put(g.job(), g.to());
            }
            // the service applies a plan action by action (PlanApplier): every prefix must fit, not only the whole
            checkNothingOverAllocated();
        }
        return plan;
    }

    /** Allocating every placement on a fresh state throws when a GPU, CPU or memory is over-allocated. */
    void checkNothingOverAllocated() {
        ClusterState state = new ClusterState(nodes);
        for (PlacedJob j : placed.values()) {
            for (PlacedJob.Replica replica : j.replicas()) {
                int node = state.indexOf(replica.node());
                state.allocate(Demands.allocationOf(j, replica, node));
            }
        }
    }

    /** GPUs the team holds (fractions count). */
    double held(String team) {
        return placed.values().stream()
                        .filter(j -> j.spec().team().equals(team))
                        .mapToLong(PlacedJob::gpuMilli)
                        .sum()
                / 1000.0;
    }

    /** GPUs the team holds in the given state, as the states are now (recomputed from what the team holds). */
    double held(String team, QuotaState state) {
        return QuotaStates.current(List.copyOf(placed.values()), teams, Workspace.nodeModels(nodes)).stream()
                        .filter(j -> j.spec().team().equals(team) && j.quotaState() == state)
                        .mapToLong(PlacedJob::gpuMilli)
                        .sum()
                / 1000.0;
    }

    boolean isPlaced(String team, String name) {
        return placed.containsKey(new JobId(team, name));
    }

    PlacedJob placement(String team, String name) {
        return placed.get(new JobId(team, name));
    }

    String reason(String team, String name) {
        return reasons.get(new JobId(team, name));
    }

    Set<String> nodesOf(String team) {
        Set<String> used = new HashSet<>();
        placed.values().stream().filter(j -> j.spec().team().equals(team)).forEach(j -> used.add(j.node()));
        return used;
    }
}

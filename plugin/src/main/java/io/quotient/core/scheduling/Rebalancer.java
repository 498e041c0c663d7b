package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Consolidation: empties the GPUs of the least-used nodes by moving their jobs onto nodes already in use, so that
 * whole nodes (and their GPUs) become free for large jobs; then frees whole GPUs on the remaining nodes by merging
 * fractions ({@link SharedGpuConsolidation}). A node is drained only when every GPU job on it may be
 * moved (preemptible, past its minimum runtime) and each one finds a new place on another busy node; the moves of a
 * node are tried on the workspace and undone unless all of them succeed. At most a share of the cluster's GPU
 * capacity is moved per plan, since each move restarts a job.
 */
final class Rebalancer {

    private final PlacementPolicy policy;

    Rebalancer(PlacementPolicy policy) {
        this.policy = policy;
    }

    Plan plan(SchedulingSnapshot snapshot, double maxMovedShare) {
        Workspace ws = Workspace.of(snapshot);
        ClusterState state = ws.state();
        long budget = (long) Math.floor(maxMovedShare * state.totalGpuMilli());
        long moved = 0;
        Set<Integer> drained = new HashSet<>();
        Set<JobId> movedJobs = new HashSet<>();
        List<PlanAction> actions = new ArrayList<>();
        for (int node : leastUsedFirst(state)) {
            List<PlacedJob> jobs = gpuJobsOn(ws, node);
            long cost = jobs.stream().mapToLong(PlacedJob::gpuMilli).sum();
            // a job moves once per plan: a node that received moved jobs is a target, not drained in turn
            if (jobs.isEmpty()
                    || moved + cost > budget
                    || !jobs.stream().allMatch(j -> movable(j, snapshot.now()) && !movedJobs.contains(j.id()))
                    || freeOnOtherBusyNodes(state, node, drained) < cost) {
                continue;
            }
            Optional<List<PlanAction.Move>> moves = drain(ws, node, jobs, drained, snapshot);
            if (moves.isPresent()) {
                drained.add(node);
                moved += cost;
                actions.addAll(moves.get());
                moves.get().forEach(m -> movedJobs.add(m.job()));
            }
        }
        new SharedGpuConsolidation(ws, snapshot, drained, movedJobs).consolidate(budget - moved, actions);
        return new Plan(actions);
    }

    /** Moves every job off the node onto other busy nodes, or changes nothing and returns empty. */
    private Optional<List<PlanAction.Move>> drain(
            Workspace ws, int node, List<PlacedJob> jobs, Set<Integer> drained, SchedulingSnapshot snapshot) {
        return ws.relocate(
                jobs,
                job -> {
                    boolean shares = Demands.sharesGpu(job.spec());
                    PlacementPolicy.NodeFilter quota = ws.countsNoMore(job);
                    PlacementPolicy.NodeFilter target = (s, n) -> n != node
                            && !drained.contains(n)
                            && busy(s, n)
                            && (!shares
                                    || snapshot.fractionReadyNodes()
                                            .contains(s.node(n).name()))
                            && quota.accepts(s, n);
                    return policy.place(ws.state(), Demands.of(job.spec()), target);
                },
                snapshot.now());
    }

    /** Where the node's jobs could go at most: a cheap bound that skips hopeless drains on a full cluster. */
    private static long freeOnOtherBusyNodes(ClusterState state, int node, Set<Integer> drained) {
        long free = 0;
        for (int n = 0; n < state.nodeCount(); n++) {
            if (n != node && !drained.contains(n) && busy(state, n)) {
                free += state.gpuFreeOnNode(n);
            }
        }
        return free;
    }

    private static List<Integer> leastUsedFirst(ClusterState state) {
        return IntStream.range(0, state.nodeCount())
                .filter(n -> state.gpuCount(n) > 0 && busy(state, n))
                .boxed()
                .sorted(Comparator.comparingLong((Integer n) -> used(state, n)).thenComparing(n -> n))
                .toList();
    }

    private static List<PlacedJob> gpuJobsOn(Workspace ws, int node) {
        return ws.jobsOn(node).stream()
                .filter(j -> !j.gpuIndices().isEmpty() && ws.allocation(j.id()).isPresent())
                .toList();
    }

    /** Preemptible and past its minimum runtime: a move restarts the job. */
    static boolean movable(PlacedJob job, Instant now) {
        return job.spec().preemptible() && !now.isBefore(job.protectedUntil());
    }

    private static boolean busy(ClusterState state, int node) {
        return used(state, node) > 0;
    }

    private static long used(ClusterState state, int node) {
        return (long) state.gpuCount(node) * ResourceDemand.WHOLE - state.gpuFreeOnNode(node);
    }
}

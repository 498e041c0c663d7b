package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The second step of consolidation: on nodes that stay busy, frees whole GPUs by moving the fractions of the
 * least-used shared GPUs onto other shared GPUs (tightest fit first), so that no new GPU is opened by a move. A GPU is
 * emptied only when every fraction on it finds a place; otherwise nothing of it moves.
 */
final class SharedGpuConsolidation {

    /** A GPU of a node. */
    private record Gpu(int node, int index, long used) {}

    private final Workspace ws;
    private final SchedulingSnapshot snapshot;
    private final Set<Integer> drainedNodes;
    private final Set<JobId> moved;

    /** @param moved jobs already moved by this plan (each job moves at most once); extended with the jobs moved here */
    SharedGpuConsolidation(Workspace ws, SchedulingSnapshot snapshot, Set<Integer> drainedNodes, Set<JobId> moved) {
        this.ws = ws;
        this.snapshot = snapshot;
        this.drainedNodes = drainedNodes;
        this.moved = moved;
    }

    /** Adds the moves to {@code actions}; returns the GPU milli moved, at most {@code budget}. */
    long consolidate(long budget, List<PlanAction> actions) {
        long spent = 0;
        for (Gpu source : sharedGpusLeastUsedFirst()) {
            List<PlacedJob> jobs = ws.jobsOn(source.node()).stream()
                    .filter(j -> j.gpuIndices().contains(source.index()))
                    .toList();
            long cost = jobs.stream().mapToLong(PlacedJob::gpuMilli).sum();
            if (jobs.isEmpty() || spent + cost > budget || !jobs.stream().allMatch(this::movableFraction)) {
                continue;
            }
            Optional<List<PlanAction.Move>> moves = empty(jobs);
            if (moves.isPresent()) {
                spent += cost;
                actions.addAll(moves.get());
            }
        }
        return spent;
    }

    private Optional<List<PlanAction.Move>> empty(List<PlacedJob> jobs) {
        Optional<List<PlanAction.Move>> moves =
                ws.relocate(jobs, job -> tightestSharedGpu(Demands.of(job.spec()), job.gpuMilli()), snapshot.now());
        moves.ifPresent(list -> list.forEach(m -> moved.add(m.job())));
        return moves;
    }

    /**
     * The partly used GPU, on a ready node, left with the least free share after taking the demand, among those where
     * it counts at most {@code heldMilli} (what the job holds now: {@link Workspace#countsNoMore}).
     */
    private Optional<Allocation> tightestSharedGpu(ResourceDemand demand, long heldMilli) {
        ClusterState state = ws.state();
        Allocation best = null;
        int bestLeft = Integer.MAX_VALUE;
        for (int n = 0; n < state.nodeCount(); n++) {
            if (drainedNodes.contains(n)
                    || !snapshot.fractionReadyNodes().contains(state.node(n).name())
                    || !demand.allowsModel(state.node(n).gpuModel())
                    || state.freeCpu(n) < demand.cpuMilli()
                    || state.freeMemory(n) < demand.memoryMib()) {
                continue;
            }
            int milli = demand.milliOn(state.node(n));
            if (milli > heldMilli) {
                continue;
            }
            for (int g = 0; g < state.gpuCount(n); g++) {
                int free = state.gpuFree(n, g);
                int left =
                        Math.max(0, free - milli); // a MiB share may fit exactly one milli past the rounded free share
                if (free < ResourceDemand.WHOLE && state.holds(n, g, demand) && left < bestLeft) {
                    bestLeft = left;
                    best = Allocation.of(demand, n, state.node(n), new int[] {g});
                }
            }
        }
        return Optional.ofNullable(best);
    }

    private List<Gpu> sharedGpusLeastUsedFirst() {
        ClusterState state = ws.state();
        List<Gpu> gpus = new ArrayList<>();
        for (int n = 0; n < state.nodeCount(); n++) {
            for (int g = 0; g < state.gpuCount(n); g++) {
                int free = state.gpuFree(n, g);
                if (!drainedNodes.contains(n) && free > 0 && free < ResourceDemand.WHOLE) {
                    gpus.add(new Gpu(n, g, ResourceDemand.WHOLE - free));
                }
            }
        }
        gpus.sort(
                Comparator.comparingLong(Gpu::used).thenComparingInt(Gpu::node).thenComparingInt(Gpu::index));
        return gpus;
    }

    /** A single-GPU fraction that may be moved and has not moved yet in this plan. */
    private boolean movableFraction(PlacedJob job) {
        return job.gpuIndices().size() == 1
                && job.milliPerGpu() < ResourceDemand.WHOLE
                && !moved.contains(job.id())
                && Rebalancer.movable(job, snapshot.now());
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The jobs any reclaim search may evict or move on the workspace as it is booked now, whatever its rights: per node
 * the jobs held there that are preemptible, past their minimum runtime and not placed by this plan
 * ({@link ReclaimCandidates#movableOrEvictable}), cheapest first, and per team and over the cluster the least a
 * rights' test would have to admit. A search filters a node's list by its rights instead of reading and sorting every
 * job on every node, and {@link ReclaimCandidates#nothingToTake} answers from the summaries alone that a search can
 * find nothing: most searches of a full cluster are of that kind (a team's own lower-priority jobs where the team has
 * none, with no free GPU to move anything to).
 *
 * <p>What a list holds depends on which jobs are booked where and on the round's instant only, so one is valid until
 * the workspace books or frees a job ({@link Workspace#bookings()}); a search's own trials release and allocate
 * capacity but book nothing.
 */
final class TakeableJobs {

    private final List<List<PlacedJob>> byNode;
    /** Per node, whether its list is sorted yet: most searches read few nodes' lists, or none. */
    private final boolean[] sorted;

    private final Comparator<PlacedJob> cheapestFirst;
    private final Map<String, List<PlacedJob>> byTeam = new HashMap<>();
    private final Map<String, Long> smallestOfTeam = new HashMap<>();
    private long smallestMovable = Long.MAX_VALUE;
    private boolean movesKeepFreeGpus = true;

    /**
     * @param work what a restart of each job repeats (the order's second key)
     */
    TakeableJobs(Workspace ws, ReclaimCandidates candidates, ToLongFunction<PlacedJob> work) {
        int nodes = ws.state().nodeCount();
        byNode = new ArrayList<>(nodes);
        sorted = new boolean[nodes];
        cheapestFirst = Comparator.comparingInt((PlacedJob j) -> j.spec().priority())
                .thenComparingLong(work)
                .thenComparing(PlacedJob::startedAt, Comparator.reverseOrder())
                .thenComparing(PlacedJob::id, JobNames::compare);
        for (int n = 0; n < nodes; n++) {
            List<PlacedJob> jobs = new ArrayList<>();
            for (PlacedJob j : ws.jobsOnNow(n)) {
                if (candidates.movableOrEvictable(j)) {
                    var held = ws.allocationOn(j.id(), n);
                    if (held.isPresent()) {
                        jobs.add(j);
                        summarise(j, held.get().totalGpuMilli());
                    }
                }
            }
            byNode.add(jobs);
        }
    }

    private void summarise(PlacedJob j, long heldMilli) {
        String team = j.spec().team();
        byTeam.computeIfAbsent(team, t -> new ArrayList<>()).add(j);
        smallestOfTeam.merge(team, j.gpuMilli(), Math::min);
        if (!j.spec().gang().spansNodes()) {
            smallestMovable = Math.min(smallestMovable, j.gpuMilli());
            ResourceDemand asked = Demands.of(j.spec());
            // a move releases what the job holds and takes what it asks at the destination
            if (asked.gpuMemoryMib() > 0 || heldMilli > (long) asked.gpuCount() * asked.gpuMilli()) {
                movesKeepFreeGpus = false;
            }
        }
    }

    /** The node's takeable jobs, cheapest first (priority, work lost, newest, name). */
    List<PlacedJob> on(int node) {
        List<PlacedJob> jobs = byNode.get(node);
        if (!sorted[node]) {
            jobs.sort(cheapestFirst);
            sorted[node] = true;
        }
        return jobs;
    }

    /** The team's takeable jobs, on every node (a job on several nodes once per node). */
    List<PlacedJob> ofTeam(String team) {
        return byTeam.getOrDefault(team, List.of());
    }

    /** The teams that have takeable jobs, each with the GPU milli of its smallest one. */
    Map<String, Long> smallestOfTeam() {
        return smallestOfTeam;
    }

    /** The GPU milli of the smallest takeable job on one node (one that could be moved); MAX_VALUE if none. */
    long smallestMovable() {
        return smallestMovable;
    }

    /**
     * Whether moving any takeable single-node job leaves the GPU milli free over the cluster no larger: each holds no
     * more than it asks, and asks the same on every node (no GPU-memory request). Then moves alone never make more
     * room on a node than the cluster has free.
     */
    boolean movesKeepFreeGpus() {
        return movesKeepFreeGpus;
    }
}

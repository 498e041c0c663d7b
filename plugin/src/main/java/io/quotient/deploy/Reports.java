package io.quotient.deploy;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGroupUsage;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.FragmentationMeasure;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.QuotaStates;
import io.quotient.core.scheduling.TeamShares;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.TeamsSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Read models for people and monitoring: how much each team holds (in quota and borrowed) and how the cluster's
 * GPUs are shared and fragmented. Computed from the records and the cluster on each call.
 */
public final class Reports {

    private final JobRecordStore store;
    private final ClusterObserver cluster;
    private final TeamsSource teams;
    /** The expected job shapes, fitted to the observed nodes as the scheduler fits them, so both judge alike. */
    private final ClusterFittedWorkload workload;
    /** The measure of the last fitted workload; rebuilt only when the node shapes, and so the workload, change. */
    private volatile FragmentationMeasure measure;
    /** The teams' usage history for decayed fair shares; null: fair shares have no memory. */
    private final UsageAccounting usage;

    /**
     * A team's quota and what it holds, in milli-GPU.
     *
     * @param inQuotaMilli   what the smallest set of its jobs covering its guarantee holds (recomputed, {@link QuotaStates})
     * @param overQuotaMilli what the rest holds: borrowed, preemptible by teams below their guarantee or fair share
     * @param fairShareMilli its guarantee as far as it has demand, plus its weighted share of idle capacity
     * @param decayedUsageMilli its decayed past borrowing (docs/fairness.md); 0 when fair shares have no memory
     * @param usageHalfLife     the cluster's fair-share half-life behind {@code decayedUsageMilli}; zero when fair
     *                          shares have no memory (instantaneous)
     */
    public record TeamUsage(
            Team team,
            long allocatedMilli,
            long inQuotaMilli,
            long overQuotaMilli,
            long fairShareMilli,
            int pendingJobs,
            long decayedUsageMilli,
            Duration usageHalfLife,
            List<ModelGroupUsage> modelGroups) {}

    /** A job's share of one GPU. */
    public record GpuShare(JobId job, int milli) {}

    /** One GPU: who holds which share, what is free, and the UUID of its reservation when it hosts fractions. */
    public record GpuUsage(int index, String reservationUuid, List<GpuShare> holders, int freeMilli) {}

    /** One node with its GPUs and its fragmentation F_n(M) in milli-GPU (docs/research/packing.md). */
    public record NodeUsage(
            NodeSpec spec, boolean fractionReady, List<GpuUsage> gpus, long freeMilli, double fragmentedMilli) {}

    /**
     * The cluster's GPUs and its fragmentation as docs/research/packing.md defines it.
     *
     * @param fragmentationAmountPercent 100 × Σ F_n(M) / all GPU milli
     * @param fragmentationRatioPercent  100 × Σ F_n(M) / free GPU milli (0 when nothing is free)
     */
    public record ClusterUsage(
            List<NodeUsage> nodes,
            long totalMilli,
            long freeMilli,
            int wholeFreeGpus,
            int wholeFreeNodes,
            double fragmentationAmountPercent,
            double fragmentationRatioPercent) {}

    public Reports(JobRecordStore store, ClusterObserver cluster, TeamsSource teams, ClusterFittedWorkload workload) {
        this(store, cluster, teams, workload, null);
    }

    /** @param usage the usage history the scheduler weighs, so that fair shares here match its; null: none */
    public Reports(
            JobRecordStore store,
            ClusterObserver cluster,
            TeamsSource teams,
            ClusterFittedWorkload workload,
            UsageAccounting usage) {
        this.store = store;
        this.cluster = cluster;
        this.teams = teams;
        this.workload = workload;
        this.usage = usage;
    }

    /** Every configured team, in configuration order. */
    public List<TeamUsage> teams() {
        Map<String, Team> configured = teams.teams();
        List<PlacedJob> placed = new ArrayList<>();
        List<JobSpec> waiting = new ArrayList<>();
        Map<String, Integer> pending = new LinkedHashMap<>();
        for (JobRecord r : store.listAll()) {
            if (r.phase().holdsCapacity()) {
                placed.add(Placements.of(r));
            } else if (r.phase().waiting()) {
                waiting.add(r.spec());
                pending.merge(r.id().team(), 1, Integer::sum);
            }
        }
        Map<String, long[]> held = new LinkedHashMap<>();
        Map<String, String> nodeModels = QuotaStates.nodeModels(cluster.nodes());
        List<PlacedJob> current = QuotaStates.current(placed, configured, nodeModels);
        for (PlacedJob p : current) {
            long[] sums = held.computeIfAbsent(p.spec().team(), t -> new long[2]);
            sums[p.quotaState() == QuotaState.IN_QUOTA ? 0 : 1] += p.gpuMilli();
        }
        Map<String, Double> past = usage == null ? Map.of() : usage.decayed();
        Duration halfLife = usage == null ? Duration.ZERO : usage.settings().usageHalfLife();
        Map<String, Long> fair = TeamShares.fairShares(configured, placed, waiting, cluster.nodes(), past);
        Map<String, Map<ModelGroup, Long>> fairIn =
                TeamShares.perGroup(configured, placed, waiting, cluster.nodes(), past);
        return configured.values().stream()
                .map(t -> {
                    long[] sums = held.getOrDefault(t.name(), new long[2]);
                    return new TeamUsage(
                            t,
                            sums[0] + sums[1],
                            sums[0],
                            sums[1],
                            fair.getOrDefault(t.name(), 0L),
                            pending.getOrDefault(t.name(), 0),
                            Math.round(past.getOrDefault(t.name(), 0.0)),
                            halfLife,
                            QuotaStates.byGroup(t, current, nodeModels).stream()
                                    .map(u -> u.withFairShare(fairIn.getOrDefault(t.name(), Map.of())
                                            .getOrDefault(u.guarantee().group(), 0L)))
                                    .toList());
                })
                .toList();
    }

    /**
     * Each placed job's quota state as it is now: recomputed from what the teams hold (the smallest set of a team's
     * jobs that covers its guarantee is in quota), not the state recorded when the job was placed.
     */
    public Map<JobId, QuotaState> currentQuotaStates() {
        List<PlacedJob> placed = new ArrayList<>();
        for (JobRecord r : store.listAll()) {
            if (r.phase().holdsCapacity()) {
                placed.add(Placements.of(r));
            }
        }
        Map<JobId, QuotaState> states = new HashMap<>();
        for (PlacedJob p : QuotaStates.current(placed, teams.teams(), QuotaStates.nodeModels(cluster.nodes()))) {
            states.put(p.id(), p.quotaState());
        }
        return states;
    }

    public ClusterUsage cluster() {
        List<NodeSpec> nodes = cluster.nodes();
        ClusterState state = new ClusterState(nodes);
        FragmentationMeasure fragmentation = measureFor(nodes);
        Map<GpuSlot, List<GpuShare>> holders = new LinkedHashMap<>();
        for (JobRecord r : store.listAll()) {
            if (r.phase().holdsCapacity()) {
                book(state, Placements.of(r), holders);
            }
        }
        Set<String> ready = cluster.fractionReadyNodes();
        Map<GpuSlot, String> reservations = cluster.reservations();
        List<NodeUsage> nodeUsages = new ArrayList<>();
        double fragmented = 0;
        int wholeFreeGpus = 0;
        int wholeFreeNodes = 0;
        for (int n = 0; n < nodes.size(); n++) {
            NodeSpec spec = nodes.get(n);
            List<GpuUsage> gpus = new ArrayList<>();
            int wholeFreeHere = 0;
            for (int g = 0; g < spec.gpuCount(); g++) {
                GpuSlot slot = new GpuSlot(spec.name(), g);
                int free = state.gpuFree(n, g);
                wholeFreeHere += free == ResourceDemand.WHOLE ? 1 : 0;
                gpus.add(new GpuUsage(g, reservations.get(slot), holders.getOrDefault(slot, List.of()), free));
            }
            double f = fragmentation.of(state, n);
            fragmented += f;
            wholeFreeGpus += wholeFreeHere;
            wholeFreeNodes += spec.gpuCount() > 0 && wholeFreeHere == spec.gpuCount() ? 1 : 0;
            nodeUsages.add(new NodeUsage(spec, ready.contains(spec.name()), gpus, state.gpuFreeOnNode(n), f));
        }
        long total = state.totalGpuMilli();
        long free = total - state.allocatedGpuMilli();
        return new ClusterUsage(
                nodeUsages,
                total,
                free,
                wholeFreeGpus,
                wholeFreeNodes,
                total == 0 ? 0 : 100.0 * fragmented / total,
                free == 0 ? 0 : 100.0 * fragmented / free);
    }

    /** Books every replica of the placement (a gang holds GPUs on each of its nodes, not only its first one). */
    private static void book(ClusterState state, PlacedJob p, Map<GpuSlot, List<GpuShare>> holders) {
        for (PlacedJob.Replica replica : p.replicas()) {
            int node = state.indexOf(replica.node());
            if (node < 0) {
                continue; // the node left the cluster; the replica's capacity is gone with it
            }
            Allocation allocation = Demands.allocationOf(p, replica, node);
            int[] gpus = allocation.gpuIndices();
            for (int g : gpus) {
                holders.computeIfAbsent(new GpuSlot(replica.node(), g), s -> new ArrayList<>())
                        .add(new GpuShare(p.id(), p.milliPerGpu()));
            }
            try {
                state.allocate(allocation);
            } catch (IllegalStateException overbooked) {
                // still listed as a holder; a report must not fail on a state the reconciler is fixing
            }
        }
    }

    private FragmentationMeasure measureFor(List<NodeSpec> nodes) {
        TargetWorkload fitted = workload.forNodes(nodes);
        FragmentationMeasure current = measure;
        if (current == null || current.workload() != fitted) { // forNodes returns the same instance while unchanged
            current = new FragmentationMeasure(fitted);
            measure = current;
        }
        return current;
    }
}

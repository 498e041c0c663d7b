package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The state a plan is built on: free capacity per GPU, the jobs holding it, and the quota ledger. A planner applies
 * its tentative steps here (evict, place), checks the result, and undoes them when they do not work out; the
 * snapshot it came from is never changed.
 */
final class Workspace {

    private final ClusterState state;
    private final Map<String, Integer> nodeIndex = new HashMap<>();
    private final Map<JobId, PlacedJob> placed = new LinkedHashMap<>();
    /** Per job, what it holds on each of its nodes (one entry per replica, the master first). */
    private final Map<JobId, List<Allocation>> allocations = new HashMap<>();
    /** Per node index, the jobs on it in the order they came (consolidation looks at one node at a time). */
    private final List<Map<JobId, Held>> byNode = new ArrayList<>();
    /** The preemptible jobs of {@link #byNode} summarised per node, for reclaim searches to rule nodes out. */
    private final ReclaimableOnNodes reclaimable;

    private final QuotaLedger ledger;
    /** Jobs booked or freed so far: what is derived from the ledger (the teams' positions) holds until it changes. */
    private long bookings;

    /** The ledger as the decision under way sees it (one model group's view while a job tries that group). */
    private QuotaLedger view;

    /** Per team, its largest preemptible job's GPU milli, as of {@link #largestAt} bookings (null: not yet read). */
    private Map<String, Long> largest;

    private long largestAt = -1;

    private Workspace(List<NodeSpec> nodes, Map<String, Team> teams, Map<String, String> nodeModels) {
        state = new ClusterState(nodes);
        reclaimable = new ReclaimableOnNodes(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            nodeIndex.putIfAbsent(nodes.get(i).name(), i);
            byNode.add(new LinkedHashMap<>());
        }
        ledger = new QuotaLedger(teams, nodeModels);
        view = ledger;
    }

    /** Per node name, its GPU model ({@link QuotaStates#nodeModels}). */
    static Map<String, String> nodeModels(List<NodeSpec> nodes) {
        return QuotaStates.nodeModels(nodes);
    }

    static Workspace of(SchedulingSnapshot snapshot) {
        return of(snapshot, QuotaCovers.NONE);
    }

    /** The snapshot's workspace, the teams' quota covers reused from {@code covers} where their jobs are unchanged. */
    static Workspace of(SchedulingSnapshot snapshot, QuotaCovers covers) {
        Map<String, String> models = nodeModels(snapshot.nodes());
        Workspace w = new Workspace(snapshot.nodes(), snapshot.teams(), models);
        for (PlacedJob job : QuotaLedger.withCurrentQuotaStates(snapshot.placed(), snapshot.teams(), models, covers)) {
            List<Allocation> held = new ArrayList<>();
            for (PlacedJob.Replica replica : job.replicas()) {
                w.observedAllocation(job, replica).ifPresent(a -> {
                    w.state.allocate(a);
                    held.add(a);
                });
            }
            if (!held.isEmpty()) {
                w.allocations.put(job.id(), held);
            }
            w.track(job, held);
        }
        return w;
    }

    ClusterState state() {
        return state;
    }

    /** The ledger as the decision under way sees it ({@link #view}). */
    QuotaLedger ledger() {
        return view;
    }

    /** Shows the ledger through {@code v} (a view of the same books) until {@link #wholeView}. */
    void view(QuotaLedger v) {
        view = v;
    }

    /** Shows the whole ledger again. */
    QuotaLedger wholeView() {
        view = ledger;
        return ledger;
    }

    /** Changes whenever a job is booked or freed, so whatever reads the ledger's totals stays valid until then. */
    long bookings() {
        return bookings;
    }

    Collection<PlacedJob> placed() {
        return placed.values();
    }

    /**
     * Per team, the GPU milli of its largest preemptible placed job (absent: none), read afresh only after a booking:
     * the within-one-job rules ask it at every search, and a pass refuses most jobs without booking anything.
     */
    Map<String, Long> largestPreemptibleJobs() {
        if (largest == null || largestAt != bookings) {
            Map<String, Long> byTeam = new HashMap<>();
            for (PlacedJob p : placed.values()) {
                if (p.spec().preemptible()) {
                    byTeam.merge(p.spec().team(), p.gpuMilli(), Math::max);
                }
            }
            largest = Collections.unmodifiableMap(byTeam);
            largestAt = bookings;
        }
        return largest;
    }

    /**
     * The GPU milli of the team's largest preemptible placed job, 0 when it has none: the within-one-job rules read it
     * only for the teams they may take from, once they apply, so most searches never build the table.
     */
    long largestPreemptibleMilli(String team) {
        Long milli = largestPreemptibleJobs().get(team);
        return milli == null ? 0 : milli;
    }

    Optional<PlacedJob> placed(JobId job) {
        return Optional.ofNullable(placed.get(job));
    }

    /** -1 when the node is not in the snapshot (removed, or never observed). */
    int nodeIndex(String node) {
        return nodeIndex.getOrDefault(node, -1);
    }

    /** Takes the capacity of a new placement. */
    void add(PlacedJob job, Allocation allocation) {
        add(job, List.of(allocation));
    }

    /** Takes the capacity of every replica of a new placement at once (a gang is booked whole or not at all). */
    void add(PlacedJob job, List<Allocation> replicas) {
        replicas.forEach(state::allocate);
        List<Allocation> held = List.copyOf(replicas);
        allocations.put(job.id(), held);
        track(job, held);
    }

    /**
     * A job on a node with what it holds there (null where the observation gave it nothing there): a reclaim search
     * reads both for every job of every node it looks at, and finding the allocation by the job's name each time was
     * a good part of its cost. {@code team} is the job's team by {@link ReclaimableOnNodes#teamIndex}: a search reads
     * what it may take of the team from an array by it, not from a map by the team's name.
     */
    record Held(PlacedJob job, Allocation here, int team) {}

    private void track(PlacedJob job, List<Allocation> held) {
        placed.put(job.id(), job);
        ledger.add(job);
        bookings++;
        for (PlacedJob.Replica replica : job.replicas()) {
            int node = nodeIndex(replica.node());
            if (node >= 0) {
                Held before = byNode.get(node)
                        .put(
                                job.id(),
                                new Held(
                                        job,
                                        firstOn(held, node),
                                        reclaimable.teamIndex(job.spec().team())));
                if (before != null) {
                    reclaimable.remove(node, before.job());
                }
                reclaimable.add(node, job);
            }
        }
    }

    private static Allocation firstOn(List<Allocation> held, int node) {
        for (Allocation a : held) {
            if (a.nodeIndex() == node) {
                return a;
            }
        }
        return null;
    }

    /** The jobs on the node, in the order they were observed or placed. */
    List<PlacedJob> jobsOn(int node) {
        List<PlacedJob> jobs = new ArrayList<>(byNode.get(node).size());
        byNode.get(node).values().forEach(h -> jobs.add(h.job()));
        return Collections.unmodifiableList(jobs);
    }

    /**
     * The jobs on the node with what each holds there, as a live view, without a copy: for a reader that changes
     * nothing in the workspace while it reads (a reclaim search reads every node for every job it decides).
     */
    Collection<Held> heldOnNow(int node) {
        return Collections.unmodifiableCollection(byNode.get(node).values());
    }

    /** The preemptible jobs on each node, summarised ({@link ReclaimableOnNodes}), as the bookings left them. */
    ReclaimableOnNodes reclaimable() {
        return reclaimable;
    }

    /** Frees what the job holds; returns it so the step can be undone with {@link #add}. */
    PlacedJob remove(JobId id) {
        PlacedJob job = placed.remove(id);
        if (job == null) {
            throw new IllegalArgumentException("job " + id + " holds no capacity in this plan");
        }
        List<Allocation> held = allocations.remove(id);
        if (held != null) {
            held.forEach(state::release);
        }
        ledger.remove(job);
        bookings++;
        for (PlacedJob.Replica replica : job.replicas()) {
            int node = nodeIndex(replica.node());
            Held was = node >= 0 ? byNode.get(node).remove(id) : null;
            if (was != null) {
                reclaimable.remove(node, was.job());
            }
        }
        return job;
    }

    /**
     * The nodes a moved job may go to as far as quota goes: those where it counts no more GPU milli than it holds now.
     * A job asking GPU memory counts more milli on a GPU with less memory, and a move is no decision of quota: it must
     * not take the job's team (or department) beyond its maximum, nor change what the team holds upward, nor move
     * it out of the GPU model group it counts against ({@link QuotaLedger#sameGroup}).
     */
    PlacementPolicy.NodeFilter countsNoMore(PlacedJob job) {
        ResourceDemand demand = Demands.of(job.spec());
        return (s, n) -> demand.totalMilliOn(s.node(n)) <= job.gpuMilli()
                && ledger.sameGroup(job, s.node(n).gpuModel());
    }

    /**
     * Moves all the jobs at once (largest first) to where {@code target} says, or, when it finds no place for one of
     * them, undoes everything and returns empty: consolidation moves a group only when every member has a new place.
     * A gang is never moved (its replicas would restart on new nodes anyway): a group with one is refused, and so is
     * a place where a job would count more GPU milli than now ({@link #countsNoMore}).
     */
    Optional<List<PlanAction.Move>> relocate(
            List<PlacedJob> jobs, Function<PlacedJob, Optional<Allocation>> target, Instant now) {
        if (jobs.stream().anyMatch(j -> j.spec().gang().spansNodes())) {
            return Optional.empty();
        }
        List<Allocation> originals = new ArrayList<>();
        for (PlacedJob job : jobs) {
            originals.add(allocation(job.id()).orElseThrow());
            remove(job.id());
        }
        List<PlanAction.Move> moves = new ArrayList<>();
        for (PlacedJob job : jobs.stream()
                .sorted(Comparator.comparingLong(PlacedJob::gpuMilli).reversed())
                .toList()) {
            Optional<Allocation> a = target.apply(job).filter(to -> to.totalGpuMilli() <= job.gpuMilli());
            if (a.isEmpty()) {
                moves.forEach(m -> remove(m.to().id()));
                for (int i = 0; i < jobs.size(); i++) {
                    add(jobs.get(i), originals.get(i));
                }
                return Optional.empty();
            }
            PlacedJob to = placement(job.spec(), a.get(), job.quotaState(), now);
            add(to, a.get());
            moves.add(new PlanAction.Move(job, to));
        }
        return Optional.of(moves);
    }

    /** What a single-node job holds (a gang's master replica). */
    Optional<Allocation> allocation(JobId id) {
        List<Allocation> held = allocations.get(id);
        return held == null || held.isEmpty() ? Optional.empty() : Optional.of(held.get(0));
    }

    /** What the job holds on that node (for a gang, its replica there). */
    Optional<Allocation> allocationOn(JobId id, int node) {
        return Optional.ofNullable(firstOn(allocations.getOrDefault(id, List.of()), node));
    }

    /** What the job holds on every node. */
    List<Allocation> allocations(JobId id) {
        return allocations.getOrDefault(id, List.of());
    }

    /** The job placed as the policy decided. */
    PlacedJob placement(JobSpec spec, Allocation a, QuotaState quota, Instant now) {
        List<Integer> gpus = new ArrayList<>();
        for (int g : a.gpuIndices()) {
            gpus.add(g);
        }
        return new PlacedJob(spec, state.node(a.nodeIndex()).name(), gpus, a.milliPerGpu(), quota, now);
    }

    /** The gang placed as the placer decided, the first allocation as its master. */
    PlacedJob placement(JobSpec spec, List<Allocation> replicas, QuotaState quota, Instant now) {
        PlacedJob master = placement(spec, replicas.get(0), quota, now);
        List<PlacedJob.Replica> others = replicas.subList(1, replicas.size()).stream()
                .map(a -> new PlacedJob.Replica(
                        state.node(a.nodeIndex()).name(),
                        Arrays.stream(a.gpuIndices()).boxed().toList()))
                .toList();
        return new PlacedJob(spec, master.node(), master.gpuIndices(), master.milliPerGpu(), quota, now, others);
    }

    /**
     * What an observed job holds, clipped to what is free: the observation may be inconsistent for a moment (a
     * node shrank, a record raced a restart), and a plan must still be made. Empty for jobs on unknown nodes.
     */
    private Optional<Allocation> observedAllocation(PlacedJob job, PlacedJob.Replica replica) {
        int node = nodeIndex(replica.node());
        if (node < 0) {
            return Optional.empty();
        }
        Allocation wanted = new Allocation(
                node,
                indices(replica, node),
                Math.min(job.milliPerGpu(), ResourceDemand.WHOLE),
                job.spec().cpuMilli(),
                job.spec().memoryMib(),
                Demands.mibPerGpu(job.spec()));
        if (state.canAllocate(wanted)) {
            return Optional.of(wanted);
        }
        int milli = wanted.milliPerGpu();
        for (int g : wanted.gpuIndices()) {
            milli = Math.min(milli, state.gpuFree(node, g));
        }
        // clipped to a share in milli: what the GPUs still have, MiB or not
        return Optional.of(new Allocation(
                node,
                wanted.gpuIndices(),
                milli,
                Math.min(wanted.cpuMilli(), state.freeCpu(node)),
                Math.min(wanted.memoryMib(), state.freeMemory(node))));
    }

    /** The replica's GPU indices that exist on the node, each once, in their order. */
    private int[] indices(PlacedJob.Replica replica, int node) {
        // a loop, not a stream: every decision rebuilds the workspace from every placed job
        List<Integer> asked = replica.gpuIndices();
        int count = state.gpuCount(node);
        int[] kept = new int[asked.size()];
        int n = 0;
        for (int g : asked) {
            if (g >= 0 && g < count && !contains(kept, n, g)) {
                kept[n++] = g;
            }
        }
        return n == kept.length ? kept : Arrays.copyOf(kept, n);
    }

    private static boolean contains(int[] values, int length, int value) {
        for (int i = 0; i < length; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }
}

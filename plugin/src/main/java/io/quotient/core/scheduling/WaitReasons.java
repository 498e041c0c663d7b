package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import io.quotient.core.placement.PlacementPolicy;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/** The human reasons a job stays pending: what blocks it and, where it helps, what would unblock it. */
public final class WaitReasons {

    private static final int NEAREST_SHOWN = 3;

    private WaitReasons() {}

    /** "3", "0.25", "2.5": GPU milli as a user writes GPUs. */
    static String gpus(long milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
    }

    static String atMax(Team team, long holds, long needs) {
        return team.name() + " is at its maxGpus " + gpus(team.maxMilli()) + " (holds " + gpus(holds)
                + " GPUs, this job needs " + gpus(needs) + ")";
    }

    static String departmentAtMax(Team team, long holds, long needs) {
        Department d = team.department();
        return team.name() + "'s department " + d.name() + " is at its maxGpus " + gpus(d.maxMilli())
                + " (its teams hold " + gpus(holds) + " GPUs, this job needs " + gpus(needs) + ")";
    }

    /**
     * A job beyond what its team's guarantee leaves: it may only borrow idle GPUs (or reclaim toward the fair share),
     * and none could be had. Says whether the team has used its guarantee or the job is simply larger than it.
     */
    static String beyondGuarantee(Team team, long holds, long needs, long fairShare, String capacity) {
        long guaranteed = team.guaranteedMilli();
        String rule = holds >= guaranteed
                ? team.name() + " has used its guarantee (" + gpus(holds) + " of " + gpus(guaranteed) + " GPUs)"
                : "this job needs " + gpus(needs) + " GPUs, more than " + team.name() + "'s guarantee leaves (holds "
                        + gpus(holds) + " of " + gpus(guaranteed) + " guaranteed GPUs)";
        String fair = fairShare <= 0
                ? ""
                : " (fair share " + gpus(fairShare) + " GPUs"
                        + (holds + needs > fairShare ? ", which this job would exceed" : "") + ")";
        return rule + " and borrows only idle GPUs" + fair + ": " + capacity;
    }

    /**
     * A job borrowing in one model group's fair-share view found no room there (the group's name comes before it):
     * what the team holds in the group and its fair share of the group's GPUs.
     */
    static String borrowingInGroup(Team team, long holds, long needs, long fairShare, String capacity) {
        return team.name() + " holds " + gpus(holds) + " GPUs there and borrows only idle GPUs (fair share there "
                + gpus(fairShare) + " GPUs" + (holds + needs > fairShare ? ", which this job would exceed" : "")
                + "): " + capacity;
    }

    static String nonPreemptibleBeyondGuarantee(Team team, long nonPreemptible, long needs) {
        return team.name() + "'s non-preemptible jobs hold " + gpus(nonPreemptible) + " of its "
                + gpus(team.guaranteedMilli())
                + " guaranteed GPUs and this job needs " + gpus(needs) + "; non-preemptible jobs run only within the"
                + " guarantee (wait for the team's jobs to finish, or deploy it with preemptible: true to borrow idle GPUs)";
    }

    static String noRoomInQuota(Team team, String capacity, Optional<Instant> nextUnprotected) {
        return capacity + "; " + team.name() + " is within its guarantee but no borrowed GPUs could be taken back to"
                + " make room (a team above its guarantee loses only down to it, or, when none of its jobs fits that,"
                + " as far below it as this team is now; non-preemptible jobs and jobs inside their minimum runtime are"
                + " never preempted)"
                + nextUnprotected
                        .map(t -> "; borrowed jobs inside their minimum runtime may be preempted from " + t)
                        .orElse("");
    }

    /**
     * Why no node takes the demand: no node could ever (model, GPU count, GPU memory, fraction readiness), or
     * capacity is in use, or it is free but scattered (fragmentation), naming the nearest candidate nodes.
     */
    static String noNode(
            ClusterState state, ResourceDemand demand, PlacementPolicy.NodeFilter filter, boolean sharesGpu) {
        List<Integer> eligible = IntStream.range(0, state.nodeCount())
                .filter(n -> couldEverHold(state.node(n), demand))
                .boxed()
                .toList();
        List<Integer> accepted =
                eligible.stream().filter(n -> filter.accepts(state, n)).toList();
        if (accepted.isEmpty()) {
            return sharesGpu
                    ? "no node that could hold it is ready for shared GPUs (its node enforcer has not reported"
                            + " ready): " + names(state, eligible)
                    : "no node that could hold it accepts it now";
        }
        if (!demand.needsGpu()) {
            return "no node has " + demand.cpuMilli() + "m CPU and " + demand.memoryMib() + " MiB memory free";
        }
        return noFreeCapacity(state, demand, accepted);
    }

    private static String noFreeCapacity(ClusterState state, ResourceDemand demand, List<Integer> nodes) {
        String what = shape(demand) + model(demand);
        Optional<Integer> cpuShort = nodes.stream()
                .filter(n -> usableGpus(state, n, demand) >= demand.gpuCount())
                .findFirst();
        if (cpuShort.isPresent()) {
            int n = cpuShort.get();
            return "nodes with " + what + " free lack CPU or memory: "
                    + state.node(n).name() + " has "
                    + state.freeCpu(n) + "m CPU and " + state.freeMemory(n) + " MiB free, the job needs "
                    + demand.cpuMilli() + "m and " + demand.memoryMib() + " MiB";
        }
        Map<Integer, Integer> usable = new HashMap<>();
        nodes.forEach(n -> usable.put(n, usableGpus(state, n, demand)));
        List<Integer> nearest = new ArrayList<>(nodes);
        nearest.sort(Comparator.comparingInt((Integer n) -> -usable.get(n)).thenComparing(n -> n));
        StringBuilder sb = new StringBuilder();
        for (int n : nearest.subList(0, Math.min(NEAREST_SHOWN, nearest.size()))) {
            sb.append(sb.isEmpty() ? "" : ", ")
                    .append(state.node(n).name())
                    .append(" (")
                    .append(usable.get(n))
                    .append(" of ")
                    .append(demand.gpuCount())
                    .append(')');
        }
        long usableTotal =
                usable.values().stream().mapToLong(Integer::longValue).sum();
        if (usableTotal == 0) {
            return "every GPU" + model(demand) + " is in use"
                    + (demand.gpuMilli() < ResourceDemand.WHOLE || demand.gpuMemoryMib() > 0
                            ? " (none has " + share(demand) + " free)"
                            : "");
        }
        String prefix = usableTotal >= demand.gpuCount()
                ? "fragmentation: " + usableTotal + " GPUs with " + share(demand) + " free in total, but no node has "
                : "no node has ";
        return prefix + what + " free; nearest candidates: " + sb;
    }

    /**
     * Why no node of the cluster could hold the demand even if it were empty, or null when some node could. Such a
     * job waits until the cluster changes, whatever the quotas.
     */
    /** How every reason of a job the cluster cannot hold begins; {@link #code} tells such reasons by it. */
    public static final String CANNOT_RUN = "it cannot run on this cluster as requested";
    /** The reason code of a job that no node of the cluster could hold even if empty. */
    public static final String UNSCHEDULABLE = "Unschedulable";
    /** The reason code of a job waiting for capacity, quota or a rule that lets it run. */
    public static final String WAITING = "Waiting";

    static String neverFits(ClusterState state, ResourceDemand demand) {
        return neverFits(state, demand, 1);
    }

    /**
     * Why no {@code replicas} nodes of the cluster, one replica each, could hold a gang even if they were empty, or
     * null when enough could; {@code replicas} is the fewest the gang starts with.
     */
    static String neverFits(ClusterState state, ResourceDemand demand, int replicas) {
        long able = IntStream.range(0, state.nodeCount())
                .filter(n -> couldEverHold(state.node(n), demand))
                .count();
        if (able >= replicas) {
            return null;
        }
        if (able == 0) {
            return CANNOT_RUN + ": " + whyNoNodeFits(state, demand);
        }
        return CANNOT_RUN + ": it needs " + replicas + " nodes that can each hold one replica, and " + able + " of the"
                + " cluster's " + state.nodeCount() + " nodes can";
    }

    /**
     * The machine-readable kind of a pending reason: {@link #UNSCHEDULABLE} when no node of the cluster as it is could
     * ever hold the job (only new nodes can help: an autoscaler's), {@link #WAITING} for every other wait.
     */
    public static String code(String pendingReason) {
        return pendingReason != null && pendingReason.startsWith(CANNOT_RUN) ? UNSCHEDULABLE : WAITING;
    }

    private static String whyNoNodeFits(ClusterState state, ResourceDemand demand) {
        Set<String> models = new TreeSet<>();
        int largest = 0;
        long largestMemory = 0;
        for (NodeSpec n : state.nodes()) {
            if (n.gpuCount() > 0) {
                models.add(n.gpuModel());
                largest = Math.max(largest, n.gpuCount());
                largestMemory = Math.max(largestMemory, n.gpuMemoryMib());
            }
        }
        if (demand.needsGpu() && models.isEmpty()) {
            return "the cluster has no GPU nodes";
        }
        if (demand.needsGpu() && models.stream().noneMatch(demand::allowsModel)) {
            return "no node has GPU model " + String.join(" or ", new TreeSet<>(demand.allowedModels()))
                    + " (the cluster has " + String.join(", ", models) + ")";
        }
        if (demand.gpuCount() > largest) {
            return "no node has " + demand.gpuCount() + " GPUs (the largest has " + largest + ")";
        }
        if (demand.gpuMemoryMib() > 0) {
            return "no GPU" + model(demand) + " has " + demand.gpuMemoryMib() + " MiB (the largest has " + largestMemory
                    + " MiB)";
        }
        return "no node has " + demand.cpuMilli() + "m CPU and " + demand.memoryMib() + " MiB memory in total";
    }

    /** Whether the node could hold the demand when empty. */
    static boolean couldEverHold(NodeSpec node, ResourceDemand demand) {
        if (node.cpuMilli() < demand.cpuMilli() || node.memoryMib() < demand.memoryMib()) {
            return false;
        }
        return !demand.needsGpu()
                || (node.gpuCount() >= demand.gpuCount()
                        && demand.allowsModel(node.gpuModel())
                        && demand.milliOn(node) <= ResourceDemand.WHOLE);
    }

    private static int usableGpus(ClusterState state, int node, ResourceDemand demand) {
        int usable = 0;
        for (int g = 0; g < state.gpuCount(node); g++) {
            usable += state.holds(node, g, demand) ? 1 : 0;
        }
        return usable;
    }

    private static String shape(ResourceDemand demand) {
        if (demand.gpuMemoryMib() > 0) {
            return demand.gpuCount() + (demand.gpuCount() == 1 ? " GPU" : " GPUs") + " with " + share(demand);
        }
        if (demand.gpuMilli() < ResourceDemand.WHOLE) {
            return demand.gpuCount() + (demand.gpuCount() == 1 ? " GPU" : " GPUs") + " with " + share(demand);
        }
        return demand.gpuCount() + (demand.gpuCount() == 1 ? " whole GPU" : " whole GPUs");
    }

    private static String share(ResourceDemand demand) {
        if (demand.gpuMemoryMib() > 0) {
            return demand.gpuMemoryMib() + " MiB";
        }
        return demand.gpuMilli() >= ResourceDemand.WHOLE ? "a whole GPU" : gpus(demand.gpuMilli()) + " of a GPU";
    }

    private static String model(ResourceDemand demand) {
        return demand.allowedModels().isEmpty()
                ? ""
                : " of model " + String.join(" or ", new TreeSet<>(demand.allowedModels()));
    }

    private static String names(ClusterState state, List<Integer> nodes) {
        return String.join(
                        ", ",
                        nodes.stream()
                                .limit(NEAREST_SHOWN)
                                .map(n -> state.node(n).name())
                                .toList())
                + (nodes.size() > NEAREST_SHOWN ? ", ..." : "");
    }
}

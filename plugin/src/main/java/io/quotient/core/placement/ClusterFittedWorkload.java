package io.quotient.core.placement;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A target workload fitted to the cluster it is scored on. A built-in workload such as
 * {@link TargetWorkload#typical()} assumes nodes with about 8 cores per GPU; on a cluster with fewer (say 16 cores
 * for 10 GPUs) none of its multi-GPU shapes would ever fit by CPU, every free GPU would count as stranded for them,
 * and the fragmentation gradient would no longer keep GPUs together for large jobs. So each GPU shape's CPU is
 * capped at what the median GPU node with enough GPUs for it has ({@link #fit}); the median, not the minimum, so
 * that one odd small node does not make every shape look small. On clusters whose nodes hold their shapes the
 * workload is unchanged (the openb cluster included). Memory is not part of a shape, so it needs no fitting.
 *
 * <p>The base may change (a workload learned from the jobs seen, {@link WorkloadLearner}); the fitting is computed
 * again only when the base instance or the multiset of node shapes changes (names do not matter), so calling it for
 * every decision costs one pass over the nodes. Thread-safe and deterministic.
 */
public final class ClusterFittedWorkload {

    /** What of a node decides the fitted workload; equal for nodes of the same make. */
    private record NodeShape(long cpuMilli, long memoryMib, int gpuCount, String gpuModel, long gpuMemoryMib) {}

    private record Fitted(TargetWorkload base, Map<NodeShape, Integer> key, TargetWorkload workload) {}

    private final Supplier<TargetWorkload> base;
    private volatile Fitted last;

    /** A fixed base workload. */
    public ClusterFittedWorkload(TargetWorkload base) {
        this(constant(base));
    }

    private ClusterFittedWorkload(Supplier<TargetWorkload> base) {
        this.base = base;
    }

    /** A base workload that may change between calls (the same instance while it stays the same): a learned one. */
    public static ClusterFittedWorkload following(Supplier<TargetWorkload> base) {
        if (base == null) {
            throw new IllegalArgumentException("a cluster-fitted workload needs a base workload");
        }
        return new ClusterFittedWorkload(base);
    }

    private static Supplier<TargetWorkload> constant(TargetWorkload base) {
        if (base == null) {
            throw new IllegalArgumentException("a cluster-fitted workload needs a base workload");
        }
        return () -> base;
    }

    /** The workload as configured or learned now, before fitting. */
    public TargetWorkload base() {
        return base.get();
    }

    /** The base workload fitted to these nodes (cached while the node shapes stay the same). */
    public TargetWorkload forNodes(List<NodeSpec> nodes) {
        Map<NodeShape, Integer> key = new HashMap<>();
        for (NodeSpec n : nodes) {
            key.merge(
                    new NodeShape(n.cpuMilli(), n.memoryMib(), n.gpuCount(), n.gpuModel(), n.gpuMemoryMib()),
                    1,
                    Integer::sum);
        }
        TargetWorkload current = base.get();
        Fitted cached = last;
        if (cached != null && cached.base() == current && cached.key().equals(key)) {
            return cached.workload();
        }
        TargetWorkload fitted = fit(current, nodes);
        last = new Fitted(current, key, fitted);
        return fitted;
    }

    /**
     * {@code base} fitted to the nodes in two steps; unchanged on a cluster that has the CPU its shapes ask for (the
     * openb cluster included), and without GPU nodes.
     * <ol>
     *   <li>If the cluster has less CPU per GPU than the GPU shapes ask for on average, every GPU shape's CPU is
     *   scaled down by that ratio: a built-in workload on CPU-lean nodes, where the shapes' figures cannot be
     *   right.</li>
     *   <li>Each GPU shape's CPU is capped at the CPU of the median GPU node with its GPU count (the lower median; a
     *   shape that no node has the GPUs for stays as it is), so that every shape fits at least half of the nodes
     *   that could take it.</li>
     * </ol>
     * Scaling the whole cluster's way, not capping each shape at the median node's CPU per GPU times its share (as
     * before): on a cluster with CPU enough, a fraction that asks for more CPU than its share of a node's is real,
     * and shrinking it made the CPU-hungry fractions of the openb trace look like they fit where they crowd out
     * other jobs (docs/research/packing.md, "The service's CPU fitting").
     */
    static TargetWorkload fit(TargetWorkload base, List<NodeSpec> nodes) {
        double cpuPerMilli = base.gpuDemand().cpuPerMilli();
        double clusterCpu = nodes.stream()
                .filter(n -> n.gpuCount() > 0)
                .mapToDouble(NodeSpec::cpuMilli)
                .sum();
        double clusterMilli = nodes.stream()
                .mapToDouble(n -> (double) n.gpuCount() * ResourceDemand.WHOLE)
                .sum();
        if (clusterMilli == 0) {
            return base;
        }
        double scale = cpuPerMilli == 0 ? 1 : Math.min(1, clusterCpu / clusterMilli / cpuPerMilli);
        return base.withCpuAtMost(shape ->
                Math.min((long) (shape.cpuMilli() * scale), medianCpuOfNodesWithGpus(nodes, shape.gpuCount())));
    }

    private static long medianCpuOfNodesWithGpus(List<NodeSpec> nodes, int gpus) {
        long[] cpu = nodes.stream()
                .filter(n -> n.gpuCount() > 0 && n.gpuCount() >= gpus)
                .mapToLong(NodeSpec::cpuMilli)
                .sorted()
                .toArray();
        // the lower median of an even count: the smaller figure lets at least half of those nodes host the shape
        return cpu.length == 0 ? Long.MAX_VALUE : cpu[(cpu.length - 1) / 2];
    }
}

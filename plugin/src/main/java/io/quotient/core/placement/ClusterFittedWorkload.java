package io.quotient.core.placement;

import io.quotient.core.cluster.NodeSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A target workload fitted to the cluster it is scored on. A built-in workload such as
 * {@link TargetWorkload#typical()} assumes nodes with about 8 cores per GPU; on a cluster with fewer (say 16 cores
 * for 10 GPUs) none of its multi-GPU shapes would ever fit by CPU, every free GPU would count as stranded for them,
 * and the fragmentation gradient would no longer keep GPUs together for large jobs. So each GPU shape's CPU is
 * capped at what the cluster's median GPU node offers per GPU ({@link TargetWorkload#withCpuPerGpuAtMost}); the
 * median, not the minimum, so that one odd small node does not make every shape look small. On clusters with
 * enough CPU per GPU the workload is unchanged. Memory is not part of a shape, so it needs no fitting.
 *
 * <p>The base may change (a workload learned from the jobs seen, {@link WorkloadLearner}); the fitting is computed
 * again only when the base instance or the multiset of node shapes changes (names do not matter), so calling it for
 * every decision costs one pass over the nodes. Thread-safe and deterministic.
 */
public final class ClusterFittedWorkload {

    /** What of a node decides the fitted workload; equal for nodes of the same make. */
    private record NodeShape(long cpuMilli, long memoryMib, int gpuCount, String gpuModel, long gpuMemoryMib) {
    }

    private record Fitted(TargetWorkload base, Map<NodeShape, Integer> key, TargetWorkload workload) {
    }

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
            key.merge(new NodeShape(n.cpuMilli(), n.memoryMib(), n.gpuCount(), n.gpuModel(), n.gpuMemoryMib()), 1,
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

    /** {@code base} with GPU shapes capped at the median GPU node's CPU per GPU; unchanged without GPU nodes. */
    static TargetWorkload fit(TargetWorkload base, List<NodeSpec> nodes) {
        long[] cpuPerGpu = nodes.stream().filter(n -> n.gpuCount() > 0)
                .mapToLong(n -> n.cpuMilli() / n.gpuCount()).sorted().toArray();
        if (cpuPerGpu.length == 0) {
            return base;
        }
        // the lower median of an even count: the smaller figure lets at least half of the GPU nodes host every shape
        return base.withCpuPerGpuAtMost(cpuPerGpu[(cpuPerGpu.length - 1) / 2]);
    }
}

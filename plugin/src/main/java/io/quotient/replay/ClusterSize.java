package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster of GPU nodes of one size for a replay: given as N nodes of G GPUs, or sized by a load factor, the trace's
 * mean offered GPUs ({@link #meanOfferedGpus}) divided by the capacity; of one GPU model, or of several in the shares
 * {@link NodeModels} gives (the mixed-model variant).
 */
public final class ClusterSize {

    /** GPU model of the generated nodes: the trace formats without models place anywhere. */
    public static final String MODEL = "GPU";
    /** Generous CPU and memory per GPU, so that only GPUs bind when the trace says nothing about CPU. */
    static final long CPU_MILLI_PER_GPU = 16_000;

    static final long MEMORY_MIB_PER_GPU = 128 * 1024;
    static final long GPU_MEMORY_MIB = 32 * 1024;

    /** The most nodes a generated cluster has: several times the largest published GPU clusters' traces. */
    public static final int MAX_NODES = 100_000;

    /** The most GPUs a generated node has: more than any machine sold. */
    public static final int MAX_GPUS_PER_NODE = 64;

    private ClusterSize() {}

    public static List<NodeSpec> uniform(int nodes, int gpusPerNode) {
        return uniform(nodes, gpusPerNode, NodeModels.SINGLE);
    }

    /**
     * N nodes of G GPUs whose models {@link NodeModels#assign} picks; a model whose name ends with its memory ({@code
     * H100-80GB}) has GPUs of that memory, others 32 GiB.
     */
    public static List<NodeSpec> uniform(int nodes, int gpusPerNode, NodeModels models) {
        if (nodes < 1 || gpusPerNode < 1) {
            throw new IllegalArgumentException("a cluster needs at least one node with at least one GPU, was " + nodes
                    + " nodes of " + gpusPerNode + " GPUs");
        }
        if (nodes > MAX_NODES || gpusPerNode > MAX_GPUS_PER_NODE) {
            throw new IllegalArgumentException("a generated cluster has at most " + MAX_NODES + " nodes of at most "
                    + MAX_GPUS_PER_NODE + " GPUs, was " + nodes + " nodes of " + gpusPerNode + " GPUs");
        }
        List<NodeSpec> list = new ArrayList<>(nodes);
        long cpu = Math.max(1, gpusPerNode) * CPU_MILLI_PER_GPU;
        List<String> modelOf = models.assign(nodes);
        for (int i = 0; i < nodes; i++) {
            String model = modelOf.get(i);
            list.add(new NodeSpec(
                    String.format("node-%04d", i),
                    cpu,
                    gpusPerNode * MEMORY_MIB_PER_GPU,
                    gpusPerNode,
                    model,
                    NodeModels.gpuMemoryMib(model, GPU_MEMORY_MIB)));
        }
        return list;
    }

    /**
     * The GPUs busy on average over the span of the submissions if every job ran from its submission: each job's GPUs
     * times the part of its duration that falls within the span, over the span. Work beyond the last submission is
     * not offered within it (counting it would make a short slice of long jobs look several times as loaded). When
     * every job is submitted at one instant the span is empty, and the mean is its limit as the span shrinks: the GPUs
     * of the jobs that run at all (returning 0 there made every {@code --load} one node).
     */
    public static double meanOfferedGpus(List<ReplayJob> jobs, List<NodeSpec> nodes) {
        long first = jobs.stream().mapToLong(ReplayJob::submitMs).min().orElse(0);
        long last = jobs.stream().mapToLong(ReplayJob::submitMs).max().orElse(0);
        if (last == first) {
            return jobs.stream()
                    .filter(j -> j.durationMs() > 0)
                    .mapToDouble(j -> j.gpuMilli(nodes) / 1000.0)
                    .sum();
        }
        double gpuMs = jobs.stream()
                .mapToDouble(j -> j.gpuMilli(nodes) / 1000.0 * Math.min(j.durationMs(), last - j.submitMs()))
                .sum();
        return gpuMs / (last - first);
    }

    /** Nodes of {@code gpusPerNode} GPUs enough for {@code load} = mean offered GPUs / capacity (at least one). */
    public static List<NodeSpec> forLoad(List<ReplayJob> jobs, double load, int gpusPerNode) {
        return forLoad(jobs, load, gpusPerNode, NodeModels.SINGLE);
    }

    /** As {@link #forLoad(List, double, int)}, the nodes' models as {@code models} assigns them. */
    public static List<NodeSpec> forLoad(List<ReplayJob> jobs, double load, int gpusPerNode, NodeModels models) {
        if (!(load > 0)) {
            throw new IllegalArgumentException("--load must be above 0 (e.g. 1.0), was " + load);
        }
        double offered = meanOfferedGpus(jobs, uniform(1, gpusPerNode));
        double nodes = Math.max(1, Math.round(offered / load / gpusPerNode));
        if (nodes > MAX_NODES) {
            throw new IllegalArgumentException(String.format(
                    "--load %s asks for %.0f nodes of %d GPUs (the trace offers %.1f GPUs on average), more than %d;"
                            + " raise --load",
                    load, nodes, gpusPerNode, offered, MAX_NODES));
        }
        return uniform((int) nodes, gpusPerNode, models);
    }
}

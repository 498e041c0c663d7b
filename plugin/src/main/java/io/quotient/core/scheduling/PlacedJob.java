package io.quotient.core.scheduling;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A job holding capacity on a node.
 *
 * @param gpuIndices  indices of the GPUs on the node it holds (empty for CPU-only jobs)
 * @param milliPerGpu guaranteed share of each of those GPUs (1000 for whole GPUs; for MiB requests
 *                    converted with that node's GPU memory)
 * @param startedAt   when it was placed; with {@link JobSpec#minRuntime()} decides preemptibility
 */
public record PlacedJob(JobSpec spec, String node, List<Integer> gpuIndices, int milliPerGpu,
                        QuotaState quotaState, Instant startedAt) {

    public PlacedJob {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(node, "node");
        gpuIndices = List.copyOf(gpuIndices);
        Objects.requireNonNull(quotaState, "quotaState");
        Objects.requireNonNull(startedAt, "startedAt");
    }

    public JobId id() {
        return spec.id();
    }

    public long gpuMilli() {
        return (long) gpuIndices.size() * milliPerGpu;
    }
}

package io.quotient.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A job holding capacity on a node, or, for a gang, on several nodes: {@code node} and {@code gpuIndices} are the
 * first replica's (the master), {@code otherReplicas} the rest, each on its own node.
 *
 * @param gpuIndices  indices of the GPUs on the node it holds (empty for CPU-only jobs)
 * @param milliPerGpu guaranteed share of each of those GPUs (1000 for whole GPUs; for MiB requests
 *                    converted with that node's GPU memory)
 * @param startedAt   when it was placed; with {@link JobSpec#minRuntime()} decides preemptibility
 * @param gpuMilli    the GPU milli the whole job holds (every replica: quotas count a gang as one); derived from the
 *                    GPUs held, kept because reclaim searches ask it of every job on every node they look at
 */
public record PlacedJob(
        JobSpec spec,
        String node,
        List<Integer> gpuIndices,
        int milliPerGpu,
        QuotaState quotaState,
        Instant startedAt,
        List<Replica> otherReplicas,
        long gpuMilli) {

    /** Where one further replica of a gang runs. */
    public record Replica(String node, List<Integer> gpuIndices) {
        public Replica {
            Objects.requireNonNull(node, "node");
            gpuIndices = List.copyOf(gpuIndices);
        }
    }

    public PlacedJob(
            JobSpec spec,
            String node,
            List<Integer> gpuIndices,
            int milliPerGpu,
            QuotaState quotaState,
            Instant startedAt) {
        this(spec, node, gpuIndices, milliPerGpu, quotaState, startedAt, List.of());
    }

    public PlacedJob(
            JobSpec spec,
            String node,
            List<Integer> gpuIndices,
            int milliPerGpu,
            QuotaState quotaState,
            Instant startedAt,
            List<Replica> otherReplicas) {
        this(
                spec,
                node,
                gpuIndices,
                milliPerGpu,
                quotaState,
                startedAt,
                otherReplicas,
                heldMilli(gpuIndices, milliPerGpu, otherReplicas));
    }

    public PlacedJob {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(node, "node");
        gpuIndices = List.copyOf(gpuIndices);
        Objects.requireNonNull(quotaState, "quotaState");
        Objects.requireNonNull(startedAt, "startedAt");
        otherReplicas = otherReplicas == null ? List.of() : List.copyOf(otherReplicas);
        if (gpuMilli != heldMilli(gpuIndices, milliPerGpu, otherReplicas)) {
            throw new IllegalArgumentException("gpuMilli " + gpuMilli + " of job " + spec.id()
                    + " is not what its GPUs hold; leave it to the constructor without it");
        }
    }

    private static long heldMilli(List<Integer> gpuIndices, int milliPerGpu, List<Replica> otherReplicas) {
        long devices = gpuIndices.size();
        for (Replica r : otherReplicas == null ? List.<Replica>of() : otherReplicas) {
            devices += r.gpuIndices().size();
        }
        return devices * milliPerGpu;
    }

    public JobId id() {
        return spec.id();
    }

    /**
     * Until when its minimum runtime protects it from preemption and moves. Saturates at {@link Instant#MAX} rather
     * than overflowing, so that no stored minimum runtime, however long, can make a reclaim fail.
     */
    public Instant protectedUntil() {
        Duration min = spec.minRuntime();
        if (min.isZero()) {
            return startedAt;
        }
        // the time left until Instant.MAX, exactly, without Duration.between: for a span that long it overflows
        // nanoseconds and throws and catches an exception inside, and a reclaim search asks this of every job
        Duration left = Duration.ofSeconds(
                Instant.MAX.getEpochSecond() - startedAt.getEpochSecond(),
                (long) Instant.MAX.getNano() - startedAt.getNano());
        return min.compareTo(left) >= 0 ? Instant.MAX : startedAt.plus(min);
    }

    /** Every replica, the master first. */
    public List<Replica> replicas() {
        List<Replica> all = new ArrayList<>(otherReplicas.size() + 1);
        all.add(new Replica(node, gpuIndices));
        all.addAll(otherReplicas);
        return all;
    }

    public PlacedJob withQuotaState(QuotaState state) {
        return new PlacedJob(spec, node, gpuIndices, milliPerGpu, state, startedAt, otherReplicas, gpuMilli);
    }
}

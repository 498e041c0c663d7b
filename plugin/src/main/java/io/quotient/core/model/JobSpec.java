package io.quotient.core.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A validated job request (built by JobSpecValidator from user input). Immutable.
 *
 * @param priority    order within the team: higher runs first and is preempted last
 * @param preemptible only preemptible jobs may borrow beyond the team's guarantee
 * @param minRuntime  a placed job is not preempted before it has run this long
 * @param gang        how many replicas run together, one per node; the GPU, CPU and memory requests are per replica
 * @param kind        training, notebook or inference: what a team's idle policy watches
 */
public record JobSpec(
        JobId id,
        GpuRequest gpu,
        long cpuMilli,
        long memoryMib,
        Set<String> allowedModels,
        int priority,
        boolean preemptible,
        Duration minRuntime,
        Gang gang,
        JobKind kind) {

    /** A training job. */
    public JobSpec(
            JobId id,
            GpuRequest gpu,
            long cpuMilli,
            long memoryMib,
            Set<String> allowedModels,
            int priority,
            boolean preemptible,
            Duration minRuntime,
            Gang gang) {
        this(id, gpu, cpuMilli, memoryMib, allowedModels, priority, preemptible, minRuntime, gang, JobKind.TRAIN);
    }

    /** A single-node job. */
    public JobSpec(
            JobId id,
            GpuRequest gpu,
            long cpuMilli,
            long memoryMib,
            Set<String> allowedModels,
            int priority,
            boolean preemptible,
            Duration minRuntime) {
        this(id, gpu, cpuMilli, memoryMib, allowedModels, priority, preemptible, minRuntime, Gang.SINGLE);
    }

    public JobSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(gpu, "gpu");
        allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
        minRuntime = minRuntime == null ? Duration.ZERO : minRuntime;
        gang = gang == null ? Gang.SINGLE : gang;
        kind = kind == null ? JobKind.TRAIN : kind;
    }

    public String team() {
        return id.team();
    }

    /**
     * The same job restricted to GPU models (a model group's, when it tries that group's guarantee); its kind kept,
     * so that a notebook placed through a model group's guarantee is still watched by its team's idle policy.
     */
    public JobSpec withAllowedModels(Set<String> models) {
        return new JobSpec(id, gpu, cpuMilli, memoryMib, models, priority, preemptible, minRuntime, gang, kind);
    }
}

package io.quotient.core.request;

import io.quotient.core.model.JobSpec;
import java.util.Set;

/**
 * A job request exactly as a user wrote it (REST body, template parameters, VDK hook), before validation.
 * Every field may be null; JobSpecValidator turns it into a {@link JobSpec} or a {@link RequestException}
 * naming the offending field. Field names are the REST API's, so errors point at what the user wrote.
 *
 * @param gpuCount       whole GPUs ({@code gpu.count})
 * @param fraction       guaranteed fraction of one GPU, 0 &lt; f &lt; 1 ({@code gpu.fraction})
 * @param fractionLimit  burst limit, fraction &lt;= limit &lt;= 1 ({@code gpu.fractionLimit})
 * @param gpuMemoryMib   guaranteed MiB of one GPU ({@code gpu.memoryMib}); never together with fraction
 * @param gpuMemoryLimitMib burst limit in MiB ({@code gpu.memoryLimitMib})
 * @param gpuDevices     the same fraction or MiB on this many GPUs of one node ({@code gpuDevices})
 * @param gpuModels      allowed GPU models; empty or null means any
 * @param replicas       distributed training: this many replicas, one per node, each with the GPUs asked
 *                       ({@code replicas}); null means one
 * @param minReplicas    an elastic gang starts with at least this many ({@code minReplicas}); null means all
 * @param kind           {@code train} (null: the default), {@code notebook} or {@code inference} ({@code kind}): what
 *                       a team's idle policy watches
 */
public record JobRequestInput(
        String team,
        String name,
        Integer gpuCount,
        Double fraction,
        Double fractionLimit,
        Long gpuMemoryMib,
        Long gpuMemoryLimitMib,
        Integer gpuDevices,
        Long cpuMilli,
        Long memoryMib,
        Integer priority,
        Boolean preemptible,
        Long minRuntimeSeconds,
        Set<String> gpuModels,
        Integer replicas,
        Integer minReplicas,
        String kind) {

    /** A request that leaves its kind open (a training job). */
    public JobRequestInput(
            String team,
            String name,
            Integer gpuCount,
            Double fraction,
            Double fractionLimit,
            Long gpuMemoryMib,
            Long gpuMemoryLimitMib,
            Integer gpuDevices,
            Long cpuMilli,
            Long memoryMib,
            Integer priority,
            Boolean preemptible,
            Long minRuntimeSeconds,
            Set<String> gpuModels,
            Integer replicas,
            Integer minReplicas) {
        this(
                team,
                name,
                gpuCount,
                fraction,
                fractionLimit,
                gpuMemoryMib,
                gpuMemoryLimitMib,
                gpuDevices,
                cpuMilli,
                memoryMib,
                priority,
                preemptible,
                minRuntimeSeconds,
                gpuModels,
                replicas,
                minReplicas,
                null);
    }

    /** A single-node request. */
    public JobRequestInput(
            String team,
            String name,
            Integer gpuCount,
            Double fraction,
            Double fractionLimit,
            Long gpuMemoryMib,
            Long gpuMemoryLimitMib,
            Integer gpuDevices,
            Long cpuMilli,
            Long memoryMib,
            Integer priority,
            Boolean preemptible,
            Long minRuntimeSeconds,
            Set<String> gpuModels) {
        this(
                team,
                name,
                gpuCount,
                fraction,
                fractionLimit,
                gpuMemoryMib,
                gpuMemoryLimitMib,
                gpuDevices,
                cpuMilli,
                memoryMib,
                priority,
                preemptible,
                minRuntimeSeconds,
                gpuModels,
                null,
                null);
    }

    /** The same request with the preemptible flag set (a template's default when the user left it open). */
    public JobRequestInput withPreemptible(Boolean value) {
        return new JobRequestInput(
                team,
                name,
                gpuCount,
                fraction,
                fractionLimit,
                gpuMemoryMib,
                gpuMemoryLimitMib,
                gpuDevices,
                cpuMilli,
                memoryMib,
                priority,
                value,
                minRuntimeSeconds,
                gpuModels,
                replicas,
                minReplicas,
                kind);
    }

    /** The same request of another kind (a Notebook's pod is adopted as a notebook). */
    public JobRequestInput withKind(String value) {
        return new JobRequestInput(
                team,
                name,
                gpuCount,
                fraction,
                fractionLimit,
                gpuMemoryMib,
                gpuMemoryLimitMib,
                gpuDevices,
                cpuMilli,
                memoryMib,
                priority,
                preemptible,
                minRuntimeSeconds,
                gpuModels,
                replicas,
                minReplicas,
                value);
    }
}

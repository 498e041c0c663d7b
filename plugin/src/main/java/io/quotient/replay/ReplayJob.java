package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.JobSpec;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One job of a replayed trace: when it is submitted, how long it runs once running, and what it asks for.
 *
 * @param name         unique in the trace
 * @param submitMs     submission, milliseconds of simulated time (epoch milliseconds)
 * @param durationMs   running time it needs; queueing and time lost to preemptions come on top
 * @param gpu          per replica
 * @param replicas     a gang of that many replicas, one per node, all or nothing
 * @param checkpointMs a preempted job resumes from its last checkpoint, taken every this much running time; 0: it
 *                     never checkpoints and restarts from the beginning
 * @param minRuntime   it is not preempted before it has run this long (as in the service)
 * @param profile      how busy it keeps its GPUs over its running time ({@link IdleProfile#BUSY}: all the time)
 */
public record ReplayJob(
        String name,
        String team,
        long submitMs,
        long durationMs,
        GpuRequest gpu,
        long cpuMilli,
        long memoryMib,
        Set<String> models,
        int replicas,
        JobKind kind,
        int priority,
        boolean preemptible,
        long checkpointMs,
        Duration minRuntime,
        IdleProfile profile) {

    /** The default checkpoint interval of a training job (the and the literature's 30 minutes). */
    public static final long DEFAULT_CHECKPOINT_MS = Duration.ofMinutes(30).toMillis();

    public ReplayJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(kind, "kind");
        models = models == null ? Set.of() : Set.copyOf(models);
        minRuntime = minRuntime == null ? Duration.ZERO : minRuntime;
        profile = profile == null ? IdleProfile.BUSY : profile;
        if (durationMs < 0 || checkpointMs < 0 || replicas < 1) {
            throw new IllegalArgumentException(
                    "job " + name + ": duration and checkpoint must not be negative and" + " replicas at least 1");
        }
    }

    /** A training job of whole GPUs on one node (the Philly trace's jobs before gangs are formed). */
    public static ReplayJob wholeGpus(String name, String team, long submitMs, long durationMs, int gpus) {
        GpuRequest request = gpus == 0 ? new GpuRequest.None() : GpuRequest.WholeGpus.of(gpus);
        return new ReplayJob(
                name,
                team,
                submitMs,
                durationMs,
                request,
                0,
                0,
                Set.of(),
                1,
                JobKind.TRAIN,
                0,
                true,
                DEFAULT_CHECKPOINT_MS,
                Duration.ZERO,
                IdleProfile.BUSY);
    }

    /** The same job with another GPU request and replica count (gangs of whole nodes). */
    public ReplayJob withShape(GpuRequest request, int replicaCount) {
        return new ReplayJob(
                name,
                team,
                submitMs,
                durationMs,
                request,
                cpuMilli,
                memoryMib,
                models,
                replicaCount,
                kind,
                priority,
                preemptible,
                checkpointMs,
                minRuntime,
                profile);
    }

    /** The same job allowed only on GPUs of these models (a pin; empty: any model). */
    public ReplayJob withModels(Set<String> allowed) {
        return new ReplayJob(
                name,
                team,
                submitMs,
                durationMs,
                gpu,
                cpuMilli,
                memoryMib,
                allowed,
                replicas,
                kind,
                priority,
                preemptible,
                checkpointMs,
                minRuntime,
                profile);
    }

    /** The request the scheduling core decides, under the team the policy schedules it in. */
    public JobSpec spec(String schedulingTeam) {
        return new JobSpec(
                new JobId(schedulingTeam, name),
                gpu,
                cpuMilli,
                memoryMib,
                models,
                priority,
                preemptible,
                minRuntime,
                Gang.of(replicas),
                kind);
    }

    /**
     * The GPU milli the whole job holds when placed: exact for whole GPUs and fractions; for a MiB request, the least
     * share it would take on any node of the cluster.
     */
    public long gpuMilli(List<NodeSpec> nodes) {
        long perReplica;
        if (gpu instanceof GpuRequest.WholeGpus w) {
            perReplica = w.count() * 1000L;
        } else if (gpu instanceof GpuRequest.Fraction f) {
            perReplica = (long) f.milli() * f.devices();
        } else if (gpu instanceof GpuRequest.Memory m) {
            perReplica = nodes.stream()
                            .filter(n -> n.gpuMemoryMib() > 0)
                            .mapToLong(n -> Math.min(1000, (m.mib() * 1000 + n.gpuMemoryMib() - 1) / n.gpuMemoryMib()))
                            .min()
                            .orElse(1000)
                    * m.devices();
        } else {
            perReplica = 0;
        }
        return perReplica * replicas;
    }
}

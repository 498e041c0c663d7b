package io.quotient.adapters.k8s.records;

import io.quotient.core.request.GpuAsk;
import io.quotient.deploy.port.VolumeRequest;
import io.quotient.deploy.port.WorkloadRef;
import java.util.List;
import java.util.Map;

/**
 * A GpuJob's spec: the request as the user wrote it (field names of the REST API and docs/design.md, "Conventions").
 * Every field may be null (absent in the resource); {@code team} and {@code name} are left out by a user who applies
 * a GpuJob with kubectl (the namespace gives the team, metadata.name the job). {@code workloadRef} is set by the
 * service only, on the record of a workload it adopted (a PyTorchJob created with kubectl, say). The components are
 * the CRD's schema, flat as users write it; {@link GpuJobMapper} maps them to and from the request's groups
 * ({@code JobRequestInput}) in one place.
 */
public record GpuJobSpec(
        String team,
        String name,
        String template,
        String image,
        List<String> command,
        List<String> args,
        Gpu gpu,
        Integer gpuDevices,
        List<String> gpuModels,
        Long cpuMilli,
        Long memoryMib,
        Integer priority,
        Boolean preemptible,
        Long minRuntimeSeconds,
        Map<String, String> labels,
        Map<String, String> env,
        Map<String, String> annotations,
        String serviceAccountName,
        List<VolumeRequest> volumes,
        List<String> imagePullSecrets,
        Integer replicas,
        Integer minReplicas,
        String runtime,
        WorkloadRef workloadRef,
        String kind) {

    /** {@code spec.gpu}: whole GPUs, or a fraction with its limit, or MiB with its limit. */
    public record Gpu(Integer count, Double fraction, Double fractionLimit, Long memoryMib, Long memoryLimitMib) {

        static final Gpu NONE = new Gpu(null, null, null, null, null);

        /** The stored form of a request's GPU ask (its devices are a field of the spec itself). */
        static Gpu of(GpuAsk ask) {
            return new Gpu(
                    ask.count(),
                    ask.fraction() == null ? null : ask.fraction().doubleValue(),
                    ask.fractionLimit() == null ? null : ask.fractionLimit().doubleValue(),
                    ask.memoryMib(),
                    ask.memoryLimitMib());
        }

        /** The request's GPU ask: this, on {@code devices} GPUs of one node. */
        GpuAsk ask(Integer devices) {
            return new GpuAsk(
                    count,
                    fraction == null ? null : GpuAsk.decimal(fraction),
                    fractionLimit == null ? null : GpuAsk.decimal(fractionLimit),
                    memoryMib,
                    memoryLimitMib,
                    devices);
        }
    }
}

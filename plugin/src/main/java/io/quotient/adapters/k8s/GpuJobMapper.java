package io.quotient.adapters.k8s;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.scheduling.JobRequestInput;
import io.quotient.core.scheduling.JobSpec;
import io.quotient.core.scheduling.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Converts between job records and GpuJob resources. The spec keeps the request exactly as written; the
 * validated {@link JobSpec} is derived again on read with the same validator, so it is never stored twice.
 */
public final class GpuJobMapper {

    /** Full-precision creation time: orders the queue (metadata.creationTimestamp has whole seconds only). */
    static final String CREATED_AT_ANNOTATION = "quotient.io/created-at";
    /** Shown for a record without status: every record is created with one, so only a GpuJob made by hand. */
    static final String UNDECIDED_REASON = "recorded; waiting for the scheduler to decide";

    private final Function<JobRequestInput, JobSpec> specOf;

    /** @param specOf the request validator, the same the service uses for new requests */
    public GpuJobMapper(Function<JobRequestInput, JobSpec> specOf) {
        this.specOf = specOf;
    }

    public GpuJobResource toResource(JobRecord record, String namespace) {
        JobSubmission s = record.submission();
        JobRequestInput r = s.request();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(TemplateRenderer.TEAM_LABEL, KubernetesNames.labelValue(r.team()));
        labels.put(TemplateRenderer.JOB_LABEL, KubernetesNames.labelValue(r.name()));
        labels.put(TemplateRenderer.MANAGED_BY_LABEL, TemplateRenderer.MANAGED_BY);
        V1ObjectMeta metadata = new V1ObjectMeta().name(KubernetesNames.ofJob(record.id())).namespace(namespace)
                .labels(labels).annotations(Map.of(CREATED_AT_ANNOTATION, record.createdAt().toString()));
        GpuJobSpec.Gpu gpu = new GpuJobSpec.Gpu(r.gpuCount(), r.fraction(), r.fractionLimit(), r.gpuMemoryMib(),
                r.gpuMemoryLimitMib());
        List<String> models = r.gpuModels() == null ? null : new ArrayList<>(new TreeSet<>(r.gpuModels()));
        GpuJobSpec spec = new GpuJobSpec(r.team(), r.name(), s.template(), s.image(), s.command(), s.args(), gpu,
                r.gpuDevices(), models, r.cpuMilli(), r.memoryMib(), r.priority(), r.preemptible(),
                r.minRuntimeSeconds(), s.labels(), s.env());
        return new GpuJobResource(metadata, spec, toStatus(record.status()));
    }

    /**
     * The record a resource holds.
     *
     * @throws io.quotient.core.scheduling.RequestException when the stored request no longer validates
     */
    public JobRecord toRecord(GpuJobResource resource) {
        GpuJobSpec s = resource.getSpec();
        GpuJobSpec.Gpu gpu = s.gpu() == null ? new GpuJobSpec.Gpu(null, null, null, null, null) : s.gpu();
        Set<String> models = s.gpuModels() == null ? null : Set.copyOf(s.gpuModels());
        JobRequestInput request = new JobRequestInput(s.team(), s.name(), gpu.count(), gpu.fraction(),
                gpu.fractionLimit(), gpu.memoryMib(), gpu.memoryLimitMib(), s.gpuDevices(), s.cpuMilli(),
                s.memoryMib(), s.priority(), s.preemptible(), s.minRuntimeSeconds(), models);
        JobSubmission submission = new JobSubmission(request, s.template(), s.image(), s.command(), s.args(),
                s.labels(), s.env());
        V1ObjectMeta metadata = resource.getMetadata();
        return new JobRecord(submission, specOf.apply(request), fromStatus(resource.getStatus()), createdAt(metadata),
                metadata.getResourceVersion());
    }

    static GpuJobStatus toStatus(JobStatus status) {
        List<GpuJobStatus.Gpu> gpus = new ArrayList<>();
        for (GpuBinding g : status.gpus()) {
            gpus.add(new GpuJobStatus.Gpu(g.index(), g.uuid(), g.fraction()));
        }
        return new GpuJobStatus(status.phase().wireName(), status.node(), gpus,
                status.quotaState() == null ? null : status.quotaState().wireName(), status.reason(),
                status.placedAt() == null ? null : status.placedAt().toString());
    }

    static JobStatus fromStatus(GpuJobStatus status) {
        if (status == null || status.phase() == null) {
            return JobStatus.pending(UNDECIDED_REASON);
        }
        List<GpuBinding> gpus = new ArrayList<>();
        if (status.gpus() != null) {
            for (GpuJobStatus.Gpu g : status.gpus()) {
                gpus.add(new GpuBinding(g.index(), g.uuid(), g.fraction()));
            }
        }
        return new JobStatus(JobPhase.fromWireName(status.phase()), status.node(), gpus,
                status.quotaState() == null ? null : QuotaState.fromWireName(status.quotaState()), status.reason(),
                status.placedAt() == null ? null : Instant.parse(status.placedAt()));
    }

    private static Instant createdAt(V1ObjectMeta metadata) {
        String annotated = metadata.getAnnotations() == null ? null : metadata.getAnnotations().get(CREATED_AT_ANNOTATION);
        if (annotated != null) {
            return Instant.parse(annotated);
        }
        return metadata.getCreationTimestamp() == null ? Instant.EPOCH : metadata.getCreationTimestamp().toInstant();
    }
}

package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.Placement;
import io.quotient.core.request.RequestException;
import io.quotient.core.request.Resources;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.IdleCondition;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Converts between job records and GpuJob resources. The spec keeps the request exactly as written; the
 * validated {@link JobSpec} is derived again on read with the same checks as a REST request, so it is never stored
 * twice and a GpuJob applied with kubectl meets the same rules and messages. In a team's namespace the team is the
 * namespace's owner and the job is named by metadata.name ({@code spec.team} and {@code spec.name} may be left out,
 * and must agree when given); in the shared namespace both come from the spec.
 */
public final class GpuJobMapper {

    /** Full-precision creation time: orders the queue (metadata.creationTimestamp has whole seconds only). */
    static final String CREATED_AT_ANNOTATION = "quotient.io/created-at";

    private final Function<JobSubmission, JobSpec> specOf;

    /** @param specOf the submission checks and request validator, the same the service uses for new requests */
    public GpuJobMapper(Function<JobSubmission, JobSpec> specOf) {
        this.specOf = specOf;
    }

    public GpuJobResource toResource(JobRecord record, TenantScope.Location location) {
        JobSubmission s = record.submission();
        JobRequestInput r = s.request();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(TemplateRenderer.TEAM_LABEL, KubernetesNames.labelValue(r.team()));
        labels.put(TemplateRenderer.JOB_LABEL, KubernetesNames.labelValue(r.name()));
        labels.put(TemplateRenderer.MANAGED_BY_LABEL, TemplateRenderer.MANAGED_BY);
        V1ObjectMeta metadata = new V1ObjectMeta()
                .name(location.name())
                .namespace(location.namespace())
                .labels(labels)
                .annotations(Map.of(CREATED_AT_ANNOTATION, record.createdAt().toString()));
        GpuAsk ask = r.gpu();
        GpuJobSpec.Gpu gpu = GpuJobSpec.Gpu.of(ask);
        List<String> allowed = r.placement().models();
        List<String> models = allowed == null ? null : List.copyOf(allowed);
        GpuJobSpec spec = new GpuJobSpec(
                r.team(),
                r.name(),
                s.template(),
                s.image(),
                s.command(),
                s.args(),
                gpu,
                ask.devices(),
                models,
                r.resources().cpuMilli(),
                r.resources().memoryMib(),
                r.runtime().priority(),
                r.runtime().preemptible(),
                r.runtime().minRuntimeSeconds(),
                s.metadata().labels(),
                s.env(),
                orNull(s.metadata().annotations()),
                s.pod().serviceAccountName(),
                orNull(s.pod().volumes()),
                orNull(s.pod().imagePullSecrets()),
                r.gang().replicas(),
                r.gang().minReplicas(),
                s.runtime(),
                s.workload(),
                r.runtime().kind());
        if (s.workload() != null
                && !s.workload().uid().isEmpty()
                && location.namespace().equals(s.pod().namespace())) {
            // owned by the workload it governs: the garbage collector deletes the record with it (a pod has no uid
            // at its admission; the reconciliation ends its job when it is gone)
            metadata.ownerReferences(List.of(new V1OwnerReference()
                    .apiVersion(s.workload().apiVersion())
                    .kind(s.workload().kind())
                    .name(s.workload().name())
                    .uid(s.workload().uid())));
        }
        return new GpuJobResource(metadata, spec, toStatus(record, record.status(), null));
    }

    /**
     * The record a resource holds.
     *
     * @throws io.quotient.core.request.RequestException when the stored request no longer validates
     */
    public JobRecord toRecord(GpuJobResource resource, TenantScope.View scope) {
        GpuJobSpec s = resource.getSpec();
        V1ObjectMeta metadata = resource.getMetadata();
        GpuJobSpec.Gpu gpu = s.gpu() == null ? GpuJobSpec.Gpu.NONE : s.gpu();
        JobRequestInput request = JobRequestInput.of(team(s, metadata, scope), jobName(s, metadata, scope))
                .with(gpu.ask(s.gpuDevices()))
                .with(new Resources(s.cpuMilli(), s.memoryMib()))
                .with(new Placement(s.gpuModels()))
                .with(new RuntimeOptions(s.priority(), s.preemptible(), s.minRuntimeSeconds(), s.kind()))
                .with(new GangAsk(s.replicas(), s.minReplicas()));
        JobSubmission submission = new JobSubmission(
                request,
                s.template(),
                s.image(),
                s.command(),
                s.args(),
                new Metadata(s.labels(), s.annotations()),
                s.env(),
                new PodOptions(metadata.getNamespace(), s.serviceAccountName(), s.volumes(), s.imagePullSecrets()),
                s.runtime(),
                s.workloadRef());
        Instant createdAt = createdAt(metadata);
        return new JobRecord(
                submission,
                specOf.apply(submission),
                fromStatus(resource.getStatus()),
                createdAt,
                metadata.getResourceVersion(),
                queuedAt(resource.getStatus(), createdAt));
    }

    /** Where the job's place in the queue counts from: as stored, or (none, or malformed) its creation. */
    private static Instant queuedAt(GpuJobStatus status, Instant createdAt) {
        if (status == null || status.queuedAt() == null) {
            return createdAt;
        }
        try {
            return Instant.parse(status.queuedAt());
        } catch (DateTimeParseException e) {
            return createdAt;
        }
    }

    private static String team(GpuJobSpec s, V1ObjectMeta metadata, TenantScope.View scope) {
        String namespace = metadata.getNamespace();
        if (scope.shared(namespace)) {
            return s.team();
        }
        String owner = scope.ownerOf(namespace)
                .orElseThrow(() -> new RequestException(
                        "metadata.namespace",
                        "namespace " + namespace + " belongs to no team; apply GpuJobs in a namespace of a team ("
                                + String.join(", ", scope.namespaces().allNamespaces()) + ")"));
        if (s.team() != null && !s.team().equals(owner)) {
            throw new RequestException(
                    "spec.team",
                    "names team " + s.team() + ", but namespace " + namespace + " belongs to team " + owner
                            + "; leave spec.team out (the namespace says the team)");
        }
        return owner;
    }

    private static String jobName(GpuJobSpec s, V1ObjectMeta metadata, TenantScope.View scope) {
        if (scope.shared(metadata.getNamespace())) {
            return s.name();
        }
        if (s.name() != null && !s.name().equals(metadata.getName())) {
            throw new RequestException(
                    "spec.name",
                    "is '" + s.name() + "' but the GpuJob is named '" + metadata.getName()
                            + "'; leave spec.name out (metadata.name names the job)");
        }
        return metadata.getName();
    }

    private static <T> T orNull(T collection) {
        return collection instanceof Collection<?> c && c.isEmpty() || collection instanceof Map<?, ?> m && m.isEmpty()
                ? null
                : collection;
    }

    /**
     * The stored form of a status of {@code record}, with the record's queue position (when it is not its creation),
     * written in leader term {@code leaderTerm} (null: none known).
     */
    public static GpuJobStatus toStatus(JobRecord record, JobStatus status, String leaderTerm) {
        List<GpuJobStatus.Gpu> gpus = new ArrayList<>();
        for (GpuBinding g : status.gpus()) {
            gpus.add(new GpuJobStatus.Gpu(g.index(), g.uuid(), g.fraction()));
        }
        return new GpuJobStatus(
                status.phase().wireName(),
                status.node(),
                gpus,
                status.quotaState() == null ? null : status.quotaState().wireName(),
                status.reason(),
                status.placedAt() == null ? null : status.placedAt().toString(),
                status.otherReplicas().isEmpty()
                        ? null
                        : status.otherReplicas().stream()
                                .map(r -> new GpuJobStatus.Replica(r.node(), r.gpuIndices()))
                                .toList(),
                leaderTerm,
                status.idle() == null ? null : List.of(condition(status.idle())),
                record.queuedAt().equals(record.createdAt())
                        ? null
                        : record.queuedAt().toString());
    }

    private static GpuJobStatus.Condition condition(IdleCondition idle) {
        return new GpuJobStatus.Condition(
                IdleCondition.TYPE,
                "True",
                idle.reason(),
                idle.message(),
                idle.since().toString());
    }

    /** The {@code Idle} condition among those stored, if it is there and true (a malformed one is not). */
    private static IdleCondition idle(List<GpuJobStatus.Condition> conditions) {
        if (conditions == null) {
            return null;
        }
        for (GpuJobStatus.Condition c : conditions) {
            if (c != null
                    && IdleCondition.TYPE.equals(c.type())
                    && "True".equals(c.status())
                    && c.reason() != null
                    && c.message() != null
                    && c.lastTransitionTime() != null) {
                try {
                    return new IdleCondition(c.reason(), c.message(), Instant.parse(c.lastTransitionTime()));
                } catch (DateTimeParseException e) {
                    return null;
                }
            }
        }
        return null;
    }

    static JobStatus fromStatus(GpuJobStatus status) {
        if (status == null || status.phase() == null) {
            return JobStatus.undecided();
        }
        List<GpuBinding> gpus = new ArrayList<>();
        if (status.gpus() != null) {
            for (GpuJobStatus.Gpu g : status.gpus()) {
                gpus.add(new GpuBinding(g.index(), g.uuid(), g.fraction()));
            }
        }
        return new JobStatus(
                JobPhase.fromWireName(status.phase()),
                status.node(),
                gpus,
                status.quotaState() == null ? null : QuotaState.fromWireName(status.quotaState()),
                status.reason(),
                status.placedAt() == null ? null : Instant.parse(status.placedAt()),
                status.replicas() == null
                        ? List.of()
                        : status.replicas().stream()
                                .map(r -> new PlacedJob.Replica(r.node(), r.gpus() == null ? List.of() : r.gpus()))
                                .toList(),
                idle(status.conditions()));
    }

    private static Instant createdAt(V1ObjectMeta metadata) {
        String annotated = metadata.getAnnotations() == null
                ? null
                : metadata.getAnnotations().get(CREATED_AT_ANNOTATION);
        if (annotated != null) {
            return Instant.parse(annotated);
        }
        return metadata.getCreationTimestamp() == null
                ? Instant.EPOCH
                : metadata.getCreationTimestamp().toInstant();
    }
}

package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.KubernetesCallException;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.template.DeferredGpuBinding;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadGateway;
import io.quotient.deploy.port.WorkloadRef;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway for jobs that govern an existing workload ({@link WorkloadRef}): a placement patches the workload
 * (labels, node affinity to the chosen nodes, one replica per node for a gang, unsuspended) instead of rendering a
 * template; a stop (preemption, delete) suspends it again and takes the placement back, so its controller does not
 * start its pods elsewhere, and deletes its pods (by the job's labels, with the stop's grace); the record stays and is
 * re-queued. A placement of a suspended workload first deletes any pod left from before (the soak found a TrainJob
 * whose controller missed a suspension that the next placement undid 2 s later: its old pod kept running on a node
 * the job no longer held). Every other job goes to the
 * gateway it wraps. Idempotent like every gateway call: each patch is computed from the workload as it is now.
 *
 * <p>A pod governed at its admission ({@link WorkloadRef#pod}) is created by its controller, not patched: its
 * placement is applied by the webhook when the pod is created, so a deploy only asks its StatefulSet to retry the
 * create now ({@link StatefulSetRetry}) rather than after its back-off; a stop deletes the pod (by the job's labels,
 * as the wrapped gateway stops any job's pods), and its controller's next create waits at admission.
 */
public final class AdoptedWorkloadGateway extends ForwardingWorkloadGateway {

    private static final Logger LOG = LoggerFactory.getLogger(AdoptedWorkloadGateway.class);
    private static final int NOT_FOUND = 404;

    private final Map<ForeignWorkloadKind, DynamicKubernetesApi> apis = new EnumMap<>(ForeignWorkloadKind.class);
    private final Function<JobId, Optional<JobRecord>> records;
    private final ToLongFunction<String> gpuMemoryOf;
    private final StatefulSetRetry retry;
    private final CoreV1Api pods;

    /**
     * @param records     the job's record (a stop names the job only)
     * @param gpuMemoryOf a node's GPU memory in MiB (0 unknown): a share's memory limits are computed from it
     */
    public AdoptedWorkloadGateway(
            WorkloadGateway rendering,
            ApiClient client,
            Function<JobId, Optional<JobRecord>> records,
            ToLongFunction<String> gpuMemoryOf) {
        super(rendering);
        this.records = records;
        this.gpuMemoryOf = gpuMemoryOf;
        this.retry = new StatefulSetRetry(client);
        this.pods = new CoreV1Api(client);
        for (ForeignWorkloadKind kind : ForeignWorkloadKind.values()) {
            apis.put(kind, new DynamicKubernetesApi(kind.group(), kind.version(), kind.plural(), client));
        }
    }

    @Override
    public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        if (!record.submission().adopted()) {
            super.deploy(record, placement, gpus);
            return;
        }
        if (record.submission().workload().isPod()) {
            retry.nudge(
                    record.submission().pod().namespace(),
                    record.submission().workload().name(),
                    record.id());
            return;
        }
        List<String> nodes =
                placement.replicas().stream().map(PlacedJob.Replica::node).toList();
        Map<String, String> shareBinding =
                DeferredGpuBinding.appliesTo(record.spec().gpu())
                        ? DeferredGpuBinding.annotations(
                                record.spec().gpu(), gpus, gpuMemoryOf.applyAsLong(placement.node()), placement.node())
                        : Map.of();
        patch(
                record,
                (kind, workload) -> {
                    if (kind.suspended(workload) && hasPods(record)) {
                        // pods left from an earlier placement (their controller never saw a suspension that was soon
                        // undone)
                        // would keep running where the job no longer is, on GPUs booked for others: they go first
                        super.stop(record.id(), null);
                    }
                    return List.of(PlacementPatch.place(
                            kind,
                            workload,
                            labels(record.id()),
                            nodes,
                            record.spec().gang().spansNodes(),
                            shareBinding));
                },
                "placed on " + String.join(", ", nodes) + " and unsuspended");
    }

    @Override
    public void stop(JobId job, Duration grace) {
        Optional<JobRecord> record = records.apply(job);
        if (record.isEmpty()
                || !record.get().submission().adopted()
                || record.get().submission().workload().isPod()) {
            super.stop(job, grace);
            return;
        }
        patch(
                record.get(),
                (kind, workload) -> PlacementPatch.takeBack(kind, workload, labels(job)),
                "suspended again, its placement taken back");
        // its pods go now, by the job's labels, as a REST job's do: the GPUs are free when the stop returns, and the
        // controller's deleting them on suspension is not relied on (it may miss a suspension undone a moment later)
        super.stop(job, grace);
    }

    /** The merge patches to send in order, computed from the workload as it is now. */
    private interface PatchOf {
        List<JsonObject> of(ForeignWorkloadKind kind, JsonObject workload);
    }

    private void patch(JobRecord record, PatchOf patchOf, String done) {
        WorkloadRef ref = record.submission().workload();
        ForeignWorkloadKind kind = ForeignWorkloadKind.of(ref)
                .orElseThrow(() -> new IllegalStateException("job " + record.id() + " governs " + ref + " of "
                        + ref.apiVersion() + ", a kind Quotient does not adopt"));
        String namespace = record.submission().pod().namespace();
        DynamicKubernetesApi api = apis.get(kind);
        KubernetesApiResponse<DynamicKubernetesObject> current = api.get(namespace, ref.name());
        if (!current.isSuccess()
                || !ref.uid().equals(current.getObject().getMetadata().getUid())) {
            // deleted: the garbage collector removes the record it owns, and the reconciliation ends the job
            LOG.info(
                    "{} {}/{} of job {} of team {} is gone (HTTP {}); nothing to patch",
                    kind.kind(),
                    namespace,
                    ref.name(),
                    record.id().name(),
                    record.id().team(),
                    current.getHttpStatusCode());
            if (current.isSuccess() || current.getHttpStatusCode() == NOT_FOUND) {
                return;
            }
            throw new KubernetesCallException(
                    "reading " + ref + " in " + namespace + " failed: HTTP " + current.getHttpStatusCode(),
                    current.getHttpStatusCode());
        }
        JsonObject stored = current.getObject().getRaw();
        int sent = 0;
        for (JsonObject patch : patchOf.of(kind, stored)) {
            if (!MergePatches.changes(stored, patch)) {
                continue; // the stored object carries it already: a write would change nothing
            }
            sent++;
            KubernetesApiResponse<DynamicKubernetesObject> patched = api.patch(
                    namespace, ref.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch(patch.toString()));
            if (!patched.isSuccess()) {
                throw new KubernetesCallException(
                        "patching " + ref + " in " + namespace + " for job " + record.id()
                                + " failed: HTTP " + patched.getHttpStatusCode() + " "
                                + (patched.getStatus() == null
                                        ? ""
                                        : patched.getStatus().getMessage()),
                        patched.getHttpStatusCode());
            }
        }
        if (sent == 0) {
            LOG.debug(
                    "{} {}/{} of job {} of team {}: already {}; nothing written",
                    kind.kind(),
                    namespace,
                    ref.name(),
                    record.id().name(),
                    record.id().team(),
                    done);
            return;
        }
        LOG.info(
                "{} {}/{} of job {} of team {}: {}",
                kind.kind(),
                namespace,
                ref.name(),
                record.id().name(),
                record.id().team(),
                done);
    }

    /** Whether any pod of the job's workload exists in its namespace (read from the API server, not a cache). */
    private boolean hasPods(JobRecord record) {
        String namespace = record.submission().pod().namespace();
        String selector = TemplateRenderer.TEAM_LABEL + "="
                + KubernetesNames.labelValue(record.id().team()) + "," + TemplateRenderer.JOB_LABEL + "="
                + KubernetesNames.labelValue(record.id().name());
        try {
            return !pods.listNamespacedPod(namespace)
                    .labelSelector(selector)
                    .limit(1)
                    .execute()
                    .getItems()
                    .isEmpty();
        } catch (ApiException e) {
            throw new KubernetesCallException(
                    "listing the pods of job " + record.id() + " in " + namespace + " failed: HTTP " + e.getCode(),
                    e.getCode());
        }
    }

    /** The labels of the job's pods: the observer sees the workload's pods as the job's by them. */
    static Map<String, String> labels(JobId job) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(TemplateRenderer.TEAM_LABEL, KubernetesNames.labelValue(job.team()));
        labels.put(TemplateRenderer.JOB_LABEL, KubernetesNames.labelValue(job.name()));
        labels.put(TemplateRenderer.MANAGED_BY_LABEL, TemplateRenderer.MANAGED_BY);
        return labels;
    }
}

package io.quotient.adapters.k8s.workloads;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.KeyedSerialExecutor;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.events.EventRecorder;
import io.quotient.adapters.k8s.observation.KubernetesClusterObserver;
import io.quotient.adapters.k8s.records.KubernetesJobRecordStore;
import io.quotient.adapters.template.RenderRequest;
import io.quotient.adapters.template.RenderedWorkload;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.adapters.template.WorkloadKind;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies decisions to a Kubernetes cluster: creates the workload rendered from the job's template (skipping an
 * identical one by the hash annotation, replacing an older placement), stops workloads gracefully, keeps
 * reservation pods for fractional GPUs, and records Events. Every call is idempotent. Workload writes of one job
 * run in order in the background, so that decisions (taken one at a time) do not wait for the API server.
 */
public final class KubernetesWorkloadGateway implements WorkloadGateway, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesWorkloadGateway.class);
    private static final Gson GSON = new Gson();

    private final TemplateRenderer renderer;
    private final KubernetesClusterObserver observer;
    private final String namespace;
    private final Map<WorkloadKind, DynamicKubernetesApi> workloadApis = new EnumMap<>(WorkloadKind.class);
    private final GenericKubernetesApi<V1Pod, V1PodList> pods;
    private final Function<JobId, Optional<KubernetesJobRecordStore.RecordLocation>> records;
    private final EventRecorder events;
    private final KeyedSerialExecutor writes = new KeyedSerialExecutor(4, "quotient-workload-writes");

    /**
     * @param namespace the service's namespace: reservation pods live there, and workloads of records without one
     * @param records   where a job's GpuJob is: its workload goes into the same namespace, owned by it (deleting the
     *                  record removes the workload)
     */
    public KubernetesWorkloadGateway(
            ApiClient client,
            String namespace,
            TemplateRenderer renderer,
            KubernetesClusterObserver observer,
            Function<JobId, Optional<KubernetesJobRecordStore.RecordLocation>> records,
            EventRecorder events) {
        this.renderer = renderer;
        this.observer = observer;
        this.namespace = namespace;
        this.records = records;
        this.events = events;
        for (WorkloadKind kind : WorkloadKind.values()) {
            workloadApis.put(kind, new DynamicKubernetesApi(kind.group(), kind.version(), kind.plural(), client));
        }
        this.pods = new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", client);
    }

    @Override
    public Map<String, TemplateTraits> templates() {
        return renderer.catalog().traits();
    }

    /**
     * Renders the workload at once (a template or binding problem is the caller's error) and creates it in the
     * background, behind earlier writes of the same job: a decision does not wait for the API server. A failed
     * create is logged; the job stays Placed without workload, and the next reconciliation deploys it again.
     */
    @Override
    public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        long gpuMemoryMib =
                observer.node(placement.node()).map(NodeSpec::gpuMemoryMib).orElse(0L);
        String target =
                Optional.ofNullable(record.submission().pod().namespace()).orElse(namespace);
        RenderedWorkload workload = renderer.render(new RenderRequest(
                target, KubernetesNames.ofWorkload(record.id()), record, placement, gpus, gpuMemoryMib));
        JobId job = record.id();
        // an owner reference names an object of the same namespace only
        DynamicKubernetesObject object =
                toObject(workload, records.apply(job).filter(r -> r.namespace().equals(target)));
        writes.submit(job, () -> create(job, workload, object, placement.node()))
                .whenComplete((done, failure) -> {
                    if (failure != null) {
                        LOG.warn(
                                "creating the workload of job {} of team {} on node {} failed: {}; the next reconciliation"
                                        + " deploys it again",
                                job.name(),
                                job.team(),
                                placement.node(),
                                failure.getMessage());
                    }
                });
    }

    private void create(JobId job, RenderedWorkload workload, DynamicKubernetesObject object, String node) {
        DynamicKubernetesApi api = workloadApis.get(workload.kind());
        String namespace = workload.namespace();
        String what =
                "creating " + workload.kind().kind() + " " + namespace + "/" + workload.name() + " for job " + job;
        KubernetesApiResponse<DynamicKubernetesObject> created = ApiCalls.call(what, () -> api.create(object));
        if (created.isSuccess()) {
            LOG.info(
                    "created {} {}/{} for job {} of team {} on node {}",
                    workload.kind().kind(),
                    namespace,
                    workload.name(),
                    job.name(),
                    job.team(),
                    node);
            return;
        }
        if (created.getHttpStatusCode() != ApiCalls.CONFLICT) {
            throw ApiCalls.failure(created, what);
        }
        KubernetesApiResponse<DynamicKubernetesObject> existing =
                ApiCalls.call(what, () -> api.get(namespace, workload.name()));
        if (existing.isSuccess() && unchanged(existing.getObject(), workload, object)) {
            return; // the same workload exists already (a re-applied decision after a restart)
        }
        if (existing.isSuccess()) {
            LOG.info(
                    "replacing {} {} of job {} of team {}: it was rendered for another placement; now node {}",
                    workload.kind().kind(),
                    workload.name(),
                    job.name(),
                    job.team(),
                    node);
            api.delete(namespace, workload.name(), ApiCalls.background(null));
        }
        KubernetesApiResponse<DynamicKubernetesObject> again = ApiCalls.call(what, () -> api.create(object));
        if (!again.isSuccess()) {
            throw ApiCalls.failure(
                    again, what + " (the previous one is still being deleted; the next reconciliation" + " retries)");
        }
    }

    /** Stops the workload, after any create of the job still queued; waits until the deletes are sent. */
    @Override
    public void stop(JobId job, Duration grace) {
        writes.run(job, () -> delete(job, grace));
    }

    private void delete(JobId job, Duration grace) {
        for (String namespace : workloadNamespaces(job)) {
            delete(job, namespace, grace);
        }
        LOG.info("stopping the workload of job {} of team {} (grace {} s)", job.name(), job.team(), grace.toSeconds());
    }

    /** Where the job's workload may be: beside its record, and wherever its Jobs and pods are seen. */
    private Set<String> workloadNamespaces(JobId job) {
        Set<String> namespaces = new LinkedHashSet<>();
        records.apply(job).ifPresent(r -> namespaces.add(r.namespace()));
        namespaces.addAll(observer.workloadNamespaces(job));
        if (namespaces.isEmpty()) {
            namespaces.add(namespace); // a record of an earlier version, deleted already
        }
        return namespaces;
    }

    private void delete(JobId job, String namespace, Duration grace) {
        String name = KubernetesNames.ofWorkload(job);
        Set<WorkloadKind> kinds = kindsInUse();
        for (WorkloadKind kind : kinds) {
            String what = "deleting " + kind.kind() + " " + namespace + "/" + name + " of job " + job;
            KubernetesApiResponse<DynamicKubernetesObject> response = ApiCalls.call(
                    what, () -> workloadApis.get(kind).delete(namespace, name, ApiCalls.background(grace)));
            // 404: nothing of that kind (or, for PyTorchJobs, no training operator installed)
            if (!response.isSuccess() && response.getHttpStatusCode() != ApiCalls.NOT_FOUND) {
                throw ApiCalls.failure(response, what);
            }
        }
        // the Job's pods get the same grace (the garbage collector would use each pod's own)
        for (V1Pod pod : observer.podsOf(job)) {
            if (pod.getMetadata().getDeletionTimestamp() == null
                    && namespace.equals(pod.getMetadata().getNamespace())) {
                deletePod(namespace, pod.getMetadata().getName(), grace, "stopping job " + job);
            }
        }
    }

    @Override
    public void removeSurplusPods(JobId job, Duration grace) {
        for (V1Pod pod : observer.surplusPodsOf(job)) {
            deletePod(
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    grace,
                    "removing a surplus pod of job " + job);
            LOG.info(
                    "removed pod {}/{} of job {} of team {} on node {}: its Job runs more pods than it should",
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    job.name(),
                    job.team(),
                    pod.getSpec() == null ? null : pod.getSpec().getNodeName());
        }
    }

    @Override
    public String ensureReservation(GpuSlot gpu) {
        Optional<V1Pod> cached = observer.reservationPod(gpu);
        if (cached.isPresent()) {
            // a terminating reservation is leaving: wait for it to go, then make a new one
            return ReservationPods.terminating(cached.get()) ? "" : ReservationPods.uuid(cached.get());
        }
        V1Pod pod = ReservationPods.build(gpu, namespace);
        String what = "creating reservation pod " + namespace + "/"
                + pod.getMetadata().getName() + " for GPU " + gpu;
        KubernetesApiResponse<V1Pod> response = ApiCalls.call(what, () -> pods.create(pod));
        if (response.isSuccess()) {
            LOG.info(
                    "reserved GPU {} of node {} for fractions with pod {}",
                    gpu.gpuIndex(),
                    gpu.node(),
                    pod.getMetadata().getName());
        } else if (response.getHttpStatusCode() != ApiCalls.CONFLICT) {
            throw ApiCalls.failure(response, what);
        }
        return ""; // the node enforcer reports the UUID a moment after the pod starts
    }

    @Override
    public void releaseReservation(GpuSlot gpu) {
        deletePod(namespace, KubernetesNames.ofReservation(gpu), null, "releasing the reservation of GPU " + gpu);
    }

    @Override
    public void recordEvent(JobId job, String reason, String message) {
        events.record(job, reason, message);
    }

    /** Waits until every workload write queued so far has been sent (or has failed). */
    public void awaitQueuedWrites() {
        writes.drain();
    }

    /** Sends what is queued (for up to 10 s), then stops the background writers. */
    @Override
    public void close() {
        writes.close();
    }

    private void deletePod(String namespace, String name, Duration grace, String why) {
        String what = "deleting pod " + namespace + "/" + name + " (" + why + ")";
        KubernetesApiResponse<V1Pod> response =
                ApiCalls.call(what, () -> pods.delete(namespace, name, ApiCalls.background(grace)));
        if (!response.isSuccess() && response.getHttpStatusCode() != ApiCalls.NOT_FOUND) {
            throw ApiCalls.failure(response, what);
        }
    }

    private Set<WorkloadKind> kindsInUse() {
        Set<WorkloadKind> kinds = new LinkedHashSet<>();
        for (String name : renderer.catalog().names()) {
            renderer.catalog().find(name).ifPresent(t -> kinds.add(t.kind()));
        }
        return kinds;
    }

    /** Same rendering and same owner: nothing to do. */
    private static boolean unchanged(
            DynamicKubernetesObject existing, RenderedWorkload workload, DynamicKubernetesObject wanted) {
        Map<String, String> annotations = existing.getMetadata().getAnnotations();
        String hash = annotations == null ? null : annotations.get(TemplateRenderer.HASH_ANNOTATION);
        return workload.hash().equals(hash)
                && existing.getMetadata().getDeletionTimestamp() == null
                && ownerUids(existing).equals(ownerUids(wanted));
    }

    private static Set<String> ownerUids(DynamicKubernetesObject object) {
        Set<String> uids = new LinkedHashSet<>();
        if (object.getMetadata().getOwnerReferences() != null) {
            object.getMetadata().getOwnerReferences().forEach(o -> uids.add(o.getUid()));
        }
        return uids;
    }

    /** The workload with its GpuJob as controlling owner, so deleting the record deletes it. */
    private static DynamicKubernetesObject toObject(
            RenderedWorkload workload, Optional<KubernetesJobRecordStore.RecordLocation> owner) {
        JsonObject json = GSON.toJsonTree(workload.body()).getAsJsonObject();
        owner.ifPresent(record -> {
            JsonObject reference = new JsonObject();
            reference.addProperty("apiVersion", GpuJobResource.API_VERSION);
            reference.addProperty("kind", GpuJobResource.KIND);
            reference.addProperty("name", record.name());
            reference.addProperty("uid", record.uid());
            reference.addProperty("controller", true);
            JsonArray references = new JsonArray();
            references.add(reference);
            json.getAsJsonObject("metadata").add("ownerReferences", references);
        });
        return new DynamicKubernetesObject(json);
    }
}

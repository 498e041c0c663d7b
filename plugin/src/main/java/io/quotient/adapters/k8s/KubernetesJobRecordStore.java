package io.quotient.adapters.k8s;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.RequestException;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Job records as {@code GpuJob} custom resources. Reads come from an informer cache overlaid with this
 * process's own writes (read-your-writes); writes go to the API server: a create carries the record's first
 * status, later status writes replace the object with the record's resourceVersion as precondition (optimistic
 * concurrency). The CRD has no status subresource, so that a deploy needs one write, not two.
 */
public final class KubernetesJobRecordStore implements JobRecordStore {

    private static final Logger log = LoggerFactory.getLogger(KubernetesJobRecordStore.class);
    private static final Comparator<JobRecord> CREATION_ORDER = Comparator.comparing(JobRecord::createdAt)
            .thenComparing(r -> r.id().team()).thenComparing(r -> r.id().name());

    private final GenericKubernetesApi<GpuJobResource, GpuJobList> api;
    private final String namespace;
    private final GpuJobMapper mapper;
    private final ReadYourWrites<GpuJobResource> view;
    /** Mapped records by resource name, reused while the resourceVersion is unchanged (mapping validates). */
    private final Map<String, JobRecord> mapped = new ConcurrentHashMap<>();
    private final Map<String, String> reportedInvalid = new ConcurrentHashMap<>();

    public KubernetesJobRecordStore(ApiClient client, SharedIndexInformer<GpuJobResource> informer, String namespace,
                                    GpuJobMapper mapper) {
        this.api = new GenericKubernetesApi<>(GpuJobResource.class, GpuJobList.class, GpuJobResource.GROUP,
                GpuJobResource.VERSION, GpuJobResource.PLURAL, client);
        this.namespace = namespace;
        this.mapper = mapper;
        this.view = new ReadYourWrites<>(name -> informer.getIndexer().getByKey(namespace + "/" + name),
                () -> informer.getIndexer().list(), Clock.systemUTC(), Duration.ofMinutes(5));
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GpuJobResource obj) {
            }

            @Override
            public void onUpdate(GpuJobResource oldObj, GpuJobResource newObj) {
            }

            @Override
            public void onDelete(GpuJobResource obj, boolean deletedFinalStateUnknown) {
                view.cacheDeleted(obj);
                mapped.remove(obj.getMetadata().getName());
            }
        });
    }

    @Override
    public JobRecord create(JobRecord record) {
        GpuJobResource resource = mapper.toResource(record, namespace);
        String name = resource.getMetadata().getName();
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call("creating GpuJob " + name,
                () -> api.create(resource));
        if (response.getHttpStatusCode() == ApiCalls.CONFLICT) {
            throw new JobAlreadyExistsException(record.id());
        }
        GpuJobResource created = ApiCalls.expect(response, "creating GpuJob " + namespace + "/" + name
                + " for job " + record.id());
        view.written(created);
        return toRecord(created);
    }

    @Override
    public Optional<JobRecord> find(JobId job) {
        GpuJobResource resource = view.get(KubernetesNames.ofJob(job));
        if (resource == null || resource.getSpec() == null || !job.team().equals(resource.getSpec().team())
                || !job.name().equals(resource.getSpec().name())) {
            return Optional.empty();
        }
        return Optional.ofNullable(toRecord(resource));
    }

    @Override
    public List<JobRecord> list(String team) {
        return records(team);
    }

    @Override
    public List<JobRecord> listAll() {
        return records(null);
    }

    @Override
    public JobRecord updateStatus(JobRecord record, JobStatus status) {
        String name = KubernetesNames.ofJob(record.id());
        GpuJobResource current = view.get(name);
        if (current == null) {
            throw new StaleRecordException(record.id(), "its GpuJob " + namespace + "/" + name + " was deleted");
        }
        // the whole object travels (no status subresource), as stored: only the status differs, and the record's
        // resourceVersion makes the API server refuse the write if anything changed since it was read
        V1ObjectMeta stored = current.getMetadata();
        V1ObjectMeta metadata = new V1ObjectMeta().name(name).namespace(namespace).uid(stored.getUid())
                .resourceVersion(record.version()).labels(stored.getLabels()).annotations(stored.getAnnotations())
                .finalizers(stored.getFinalizers()).ownerReferences(stored.getOwnerReferences());
        GpuJobResource update = new GpuJobResource(metadata, current.getSpec(), GpuJobMapper.toStatus(status));
        String what = "updating the status of GpuJob " + namespace + "/" + name + " of job " + record.id();
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call(what, () -> api.update(update));
        if (response.getHttpStatusCode() == ApiCalls.CONFLICT) {
            throw new StaleRecordException(record.id(), "resourceVersion " + record.version() + " is outdated");
        }
        if (response.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            throw new StaleRecordException(record.id(), "its GpuJob " + namespace + "/" + name + " was deleted");
        }
        GpuJobResource written = ApiCalls.expect(response, what);
        view.written(written);
        return toRecord(written);
    }

    @Override
    public boolean delete(JobId job) {
        String name = KubernetesNames.ofJob(job);
        GpuJobResource current = view.get(name);
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call("deleting GpuJob " + name,
                () -> api.delete(namespace, name, ApiCalls.background(null)));
        if (response.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            return false;
        }
        if (!response.isSuccess()) {
            throw ApiCalls.failure(response, "deleting GpuJob " + namespace + "/" + name + " of job " + job);
        }
        view.deleted(name, current == null ? "0" : current.getMetadata().getResourceVersion());
        mapped.remove(name);
        return true;
    }

    /** The UID of the job's GpuJob, to make it the owner of the objects rendered for the job. */
    public Optional<String> uidOf(JobId job) {
        GpuJobResource resource = view.get(KubernetesNames.ofJob(job));
        return Optional.ofNullable(resource).map(r -> r.getMetadata().getUid());
    }

    private List<JobRecord> records(String team) {
        List<JobRecord> result = new ArrayList<>();
        for (GpuJobResource resource : view.list()) {
            if (resource.getSpec() == null || (team != null && !team.equals(resource.getSpec().team()))) {
                continue;
            }
            JobRecord record = toRecord(resource);
            if (record != null) {
                result.add(record);
            }
        }
        result.sort(CREATION_ORDER);
        return result;
    }

    /** The record of a resource, or null (logged once per version) when its stored request is no longer valid. */
    private JobRecord toRecord(GpuJobResource resource) {
        String name = resource.getMetadata().getName();
        String version = resource.getMetadata().getResourceVersion();
        JobRecord cached = mapped.get(name);
        if (cached != null && version != null && version.equals(cached.version())) {
            return cached;
        }
        try {
            JobRecord record = mapper.toRecord(resource);
            mapped.put(name, record);
            return record;
        } catch (RequestException | IllegalArgumentException e) {
            if (!version.equals(reportedInvalid.put(name, version))) {
                log.warn("GpuJob {}/{} (team {}) is ignored: its stored request is invalid: {}. Delete it and deploy "
                        + "the job again.", namespace, name, resource.getSpec().team(), e.getMessage());
            }
            return null;
        }
    }
}

package io.quotient.adapters.k8s.records;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.ReadYourWrites;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.model.JobId;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job records as {@code GpuJob} custom resources in the teams' namespaces (and, for the teams that share it and for
 * records of earlier versions, in the service's namespace). Reads come from a cluster-wide informer cache overlaid
 * with this process's own writes (read-your-writes), limited to the namespaces the service manages. Writes go to
 * the API server: a create, then the record's first status through the status subresource (users may create
 * GpuJobs but not write their status, so a placement cannot be claimed by hand); later status writes carry the
 * record's resourceVersion as precondition (optimistic concurrency).
 */
public final class KubernetesJobRecordStore implements JobRecordStore {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesJobRecordStore.class);
    private static final Comparator<JobRecord> CREATION_ORDER = Comparator.comparing(JobRecord::createdAt)
            .thenComparing(r -> r.id().team())
            .thenComparing(r -> r.id().name());

    /** How often a record that keeps changing while it is claimed is read again before the claim gives up. */
    private static final int CLAIM_ATTEMPTS = 5;
    /** How many records a claim rewrites at once unless told otherwise. */
    public static final int DEFAULT_CLAIM_WRITERS = 16;

    private final GenericKubernetesApi<GpuJobResource, GpuJobList> api;
    private final GpuJobStatusWriter statusWriter;
    private final TenantScope scope;
    private final GpuJobMapper mapper;
    private final ReadYourWrites<GpuJobResource> view;
    /** Mapped records by namespace/name, reused while the resourceVersion is unchanged (mapping validates). */
    private final Map<String, JobRecord> mapped = new ConcurrentHashMap<>();

    private final Map<String, String> reportedInvalid = new ConcurrentHashMap<>();
    private volatile BiConsumer<GpuJobResource, String> invalidListener = (resource, why) -> {};
    private final int claimWriters;
    /** The leader term this replica's status writes carry (null until it first leads). */
    private volatile String leaderTerm;

    public KubernetesJobRecordStore(
            ApiClient client, SharedIndexInformer<GpuJobResource> informer, TenantScope scope, GpuJobMapper mapper) {
        this(client, informer, scope, mapper, DEFAULT_CLAIM_WRITERS);
    }

    /** @param claimWriters how many records {@link #claimForTerm} rewrites at once */
    public KubernetesJobRecordStore(
            ApiClient client,
            SharedIndexInformer<GpuJobResource> informer,
            TenantScope scope,
            GpuJobMapper mapper,
            int claimWriters) {
        this.claimWriters = claimWriters;
        this.api = new GenericKubernetesApi<>(
                GpuJobResource.class,
                GpuJobList.class,
                GpuJobResource.GROUP,
                GpuJobResource.VERSION,
                GpuJobResource.PLURAL,
                client);
        this.statusWriter = new GpuJobStatusWriter(client);
        this.scope = scope;
        this.mapper = mapper;
        this.view = new ReadYourWrites<>(
                key -> informer.getIndexer().getByKey(key),
                () -> informer.getIndexer().list(),
                Clock.systemUTC(),
                Duration.ofMinutes(5));
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GpuJobResource obj) {}

            @Override
            public void onUpdate(GpuJobResource oldObj, GpuJobResource newObj) {}

            @Override
            public void onDelete(GpuJobResource obj, boolean deletedFinalStateUnknown) {
                view.cacheDeleted(obj);
                mapped.remove(ReadYourWrites.keyOf(obj));
            }
        });
    }

    /** Told about a GpuJob whose request is invalid (once per version), e.g. to mark one applied with kubectl Failed. */
    public void onInvalid(BiConsumer<GpuJobResource, String> listener) {
        this.invalidListener = listener;
    }

    @Override
    public JobRecord create(JobRecord record) {
        if (locate(record.id()).isPresent()) {
            throw new JobAlreadyExistsException(record.id()); // in another namespace of the team
        }
        TenantScope.Location location = locationOf(record);
        GpuJobResource resource = mapper.toResource(record, location);
        String what = "creating GpuJob " + location.key() + " for job " + record.id();
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call(what, () -> api.create(resource));
        if (response.getHttpStatusCode() == ApiCalls.CONFLICT) {
            throw new JobAlreadyExistsException(record.id());
        }
        GpuJobResource created = ApiCalls.expect(response, what);
        view.written(created);
        if (record.status().equals(JobStatus.undecided())) {
            return toRecord(created); // no status reads as undecided: one write
        }
        // the API server drops the status of a create (status subresource): the first decision is a second write
        return writeStatus(record.withVersion(created.getMetadata().getResourceVersion()), created, record.status());
    }

    @Override
    public Optional<JobRecord> find(JobId job) {
        return locate(job).map(this::toRecord);
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
        TenantScope.Location location = locationOf(record);
        GpuJobResource current = view.get(location.key());
        if (current == null) {
            throw new StaleRecordException(record.id(), "its GpuJob " + location.key() + " was deleted");
        }
        return writeStatus(record, current, status);
    }

    /** Writes the status through the status subresource, if the stored version still equals the record's. */
    private JobRecord writeStatus(JobRecord record, GpuJobResource current, JobStatus status) {
        V1ObjectMeta stored = current.getMetadata();
        String key = ReadYourWrites.keyOf(current);
        V1ObjectMeta metadata = new V1ObjectMeta()
                .name(stored.getName())
                .namespace(stored.getNamespace())
                .uid(stored.getUid())
                .resourceVersion(record.version())
                .labels(stored.getLabels())
                .annotations(stored.getAnnotations())
                .finalizers(stored.getFinalizers())
                .ownerReferences(stored.getOwnerReferences());
        GpuJobResource update =
                new GpuJobResource(metadata, current.getSpec(), GpuJobMapper.toStatus(record, status, leaderTerm));
        String what = "updating the status of GpuJob " + key + " of job " + record.id();
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call(what, () -> statusWriter.replaceStatus(update));
        if (response.getHttpStatusCode() == ApiCalls.CONFLICT) {
            throw new StaleRecordException(record.id(), "resourceVersion " + record.version() + " is outdated");
        }
        if (response.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            throw new StaleRecordException(record.id(), "its GpuJob " + key + " was deleted");
        }
        GpuJobResource written = ApiCalls.expect(response, what);
        view.written(written);
        return toRecord(written);
    }

    @Override
    public boolean delete(JobId job) {
        Optional<GpuJobResource> current = locate(job);
        if (current.isEmpty()) {
            return false;
        }
        V1ObjectMeta metadata = current.get().getMetadata();
        String key = ReadYourWrites.keyOf(current.get());
        KubernetesApiResponse<GpuJobResource> response = ApiCalls.call(
                "deleting GpuJob " + key,
                () -> api.delete(metadata.getNamespace(), metadata.getName(), ApiCalls.background(null)));
        if (response.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            return false;
        }
        if (!response.isSuccess()) {
            throw ApiCalls.failure(response, "deleting GpuJob " + key + " of job " + job);
        }
        view.deleted(key, metadata.getResourceVersion() == null ? "0" : metadata.getResourceVersion());
        mapped.remove(key);
        return true;
    }

    /**
     * Lists the GpuJobs from the API server itself (a quorum read, not the informer cache) and rewrites the status of
     * every live record with {@code term}, several at a time (one by one is slow while an API server recovers, and etcd
     * commits concurrent writes together; integration-tests/README.md, "A new leader's claim"); a record that changed
     * in between is read again and rewritten. Each write enters the read-your-writes view, so this replica's reads are at least as new
     * as the API server's at the list.
     */
    @Override
    public int claimForTerm(String term) {
        leaderTerm = term;
        String what = "listing GpuJobs to claim them for leader term " + term;
        GpuJobList listed = ApiCalls.expect(ApiCalls.call(what, api::list), what);
        TenantScope.View now = scope.now();
        List<GpuJobResource> managed = listed.getItems().stream()
                .filter(r -> r.getSpec() != null && now.managed(r.getMetadata().getNamespace()))
                .toList();
        ExecutorService writers = Executors.newFixedThreadPool(claimWriters, runnable -> {
            Thread thread = new Thread(runnable, "quotient-claim");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Boolean>> claims = managed.stream()
                    .map(r -> writers.submit(() -> claim(r, now)))
                    .toList();
            int claimed = 0;
            for (Future<Boolean> claim : claims) {
                claimed += Boolean.TRUE.equals(claim.get()) ? 1 : 0;
            }
            return claimed;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while claiming the records for leader term " + term, e);
        } finally {
            writers.shutdownNow();
        }
    }

    /** Rewrites one live record with the current term; false when it is finished, invalid or gone. */
    private boolean claim(GpuJobResource listed, TenantScope.View now) {
        GpuJobResource resource = listed;
        for (int attempt = 1; ; attempt++) {
            JobRecord record = toRecord(resource, now);
            if (record == null || record.phase().finished()) {
                return false;
            }
            try {
                writeStatus(record, resource, record.status());
                return true;
            } catch (StaleRecordException e) {
                if (attempt >= CLAIM_ATTEMPTS) {
                    throw e;
                }
                V1ObjectMeta metadata = resource.getMetadata();
                String what = "reading GpuJob " + ReadYourWrites.keyOf(resource) + " again to claim it";
                KubernetesApiResponse<GpuJobResource> again =
                        ApiCalls.call(what, () -> api.get(metadata.getNamespace(), metadata.getName()));
                if (again.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
                    return false;
                }
                resource = ApiCalls.expect(again, what);
            }
        }
    }

    /** Where the job's GpuJob is (namespace, name) and its UID: its workload goes beside it, owned by it. */
    public Optional<RecordLocation> locationOf(JobId job) {
        return locate(job)
                .map(r -> new RecordLocation(
                        r.getMetadata().getNamespace(),
                        r.getMetadata().getName(),
                        r.getMetadata().getUid()));
    }

    /** A GpuJob's namespace, name and UID. */
    public record RecordLocation(String namespace, String name, String uid) {}

    private TenantScope.Location locationOf(JobRecord record) {
        String namespace = record.submission().pod().namespace();
        return scope.now().locationIn(namespace == null ? scope.serviceNamespace() : namespace, record.id());
    }

    /** The job's GpuJob: in one of its team's namespaces, or (older records) in the shared namespace. */
    private Optional<GpuJobResource> locate(JobId job) {
        TenantScope.View now = scope.now();
        for (TenantScope.Location candidate : now.candidates(job)) {
            GpuJobResource resource = view.get(candidate.key());
            if (resource != null && resource.getSpec() != null) {
                JobRecord record = toRecord(resource, now);
                if (record != null && record.id().equals(job)) {
                    return Optional.of(resource);
                }
            }
        }
        return Optional.empty();
    }

    private List<JobRecord> records(String team) {
        TenantScope.View now = scope.now();
        List<JobRecord> result = new ArrayList<>();
        for (GpuJobResource resource : view.list()) {
            if (resource.getSpec() == null
                    || !now.managed(resource.getMetadata().getNamespace())) {
                continue;
            }
            JobRecord record = toRecord(resource, now);
            if (record != null && (team == null || team.equals(record.id().team()))) {
                result.add(record);
            }
        }
        result.sort(CREATION_ORDER);
        return withoutTwins(result);
    }

    /**
     * One record per job: a team with several namespaces could hold two GpuJobs of one name (applied with kubectl in
     * each); the older one is the job, the younger one is ignored (and reported once) until it is deleted.
     */
    private List<JobRecord> withoutTwins(List<JobRecord> ordered) {
        Set<JobId> seen = new HashSet<>();
        List<JobRecord> result = new ArrayList<>(ordered.size());
        for (JobRecord record : ordered) {
            if (seen.add(record.id())) {
                result.add(record);
            } else if (reportedInvalid.put("twin/" + record.id(), "") == null) {
                LOG.warn(
                        "job {} of team {} has a second GpuJob in namespace {}; only the older one counts. Delete one"
                                + " of them.",
                        record.id().name(),
                        record.id().team(),
                        record.submission().pod().namespace());
            }
        }
        return result;
    }

    private JobRecord toRecord(GpuJobResource resource) {
        return toRecord(resource, scope.now());
    }

    /** The record of a resource, or null (logged once per version) when its stored request is not valid. */
    private JobRecord toRecord(GpuJobResource resource, TenantScope.View now) {
        String key = ReadYourWrites.keyOf(resource);
        String version = resource.getMetadata().getResourceVersion();
        JobRecord cached = mapped.get(key);
        if (cached != null && version != null && version.equals(cached.version())) {
            return cached;
        }
        try {
            JobRecord record = mapper.toRecord(resource, now);
            mapped.put(key, record);
            return record;
        } catch (RequestException | IllegalArgumentException e) {
            if (!String.valueOf(version).equals(reportedInvalid.put(key, String.valueOf(version)))) {
                LOG.warn(
                        "GpuJob {} is ignored: its request is invalid: {}. Delete it and deploy the job again.",
                        key,
                        LogValues.escape(e.getMessage()));
                invalidListener.accept(resource, e.getMessage());
            }
            return null;
        }
    }
}

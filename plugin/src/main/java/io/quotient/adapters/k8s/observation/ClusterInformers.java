package io.quotient.adapters.k8s.observation;

import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobList;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.Namespaces;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.records.GpuJobList;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.adapters.template.WorkloadKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informer caches the Kubernetes adapters read from: every node, and in every namespace the GpuJobs and the
 * Jobs and pods Quotient manages (label {@code app.kubernetes.io/managed-by=quotient}): teams' jobs live in the
 * teams' namespaces, which change with the teams configuration, so one cluster-wide watch per kind replaces one per
 * namespace; the readers keep only the namespaces the service manages. Watches need a client without read
 * timeout; pass one built for that.
 */
public final class ClusterInformers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterInformers.class);
    static final String MANAGED_SELECTOR = TemplateRenderer.MANAGED_BY_LABEL + "=" + TemplateRenderer.MANAGED_BY;

    private final SharedInformerFactory factory;
    private final String namespace;
    private final SharedIndexInformer<V1Node> nodes;
    private final SharedIndexInformer<V1Pod> pods;
    private final SharedIndexInformer<V1Job> jobs;
    private final SharedIndexInformer<GpuJobResource> gpuJobs;
    /**
     * Quotient's PyTorchJobs and TrainJobs: their uids tell a re-placed gang's new pods from its earlier ones, their
     * conditions say when the training operator judged them done. Optional: without Kubeflow's CRDs these caches
     * never sync, and the pods alone decide (the list is retried quietly, so installing Kubeflow later is seen).
     */
    private final Map<WorkloadKind, SharedIndexInformer<DynamicKubernetesObject>> trainingJobs =
            new EnumMap<>(WorkloadKind.class);

    /** @param namespace the service's own namespace (reservation pods, Lease, the shared namespace of teams) */
    public ClusterInformers(ApiClient watchClient, String namespace) {
        this.namespace = namespace;
        this.factory = new SharedInformerFactory(watchClient);
        CoreV1Api core = new CoreV1Api(watchClient);
        BatchV1Api batch = new BatchV1Api(watchClient);
        nodes = factory.sharedIndexInformerFor(
                new GenericKubernetesApi<>(V1Node.class, V1NodeList.class, "", "v1", "nodes", watchClient),
                V1Node.class,
                0);
        pods = factory.sharedIndexInformerFor(
                params -> core.listPodForAllNamespaces()
                        .labelSelector(MANAGED_SELECTOR)
                        .resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds)
                        .watch(params.watch)
                        .buildCall(null),
                V1Pod.class,
                V1PodList.class);
        jobs = factory.sharedIndexInformerFor(
                params -> batch.listJobForAllNamespaces()
                        .labelSelector(MANAGED_SELECTOR)
                        .resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds)
                        .watch(params.watch)
                        .buildCall(null),
                V1Job.class,
                V1JobList.class);
        gpuJobs = factory.sharedIndexInformerFor(
                new GenericKubernetesApi<>(
                        GpuJobResource.class,
                        GpuJobList.class,
                        GpuJobResource.GROUP,
                        GpuJobResource.VERSION,
                        GpuJobResource.PLURAL,
                        watchClient),
                GpuJobResource.class,
                0);
        for (WorkloadKind kind : List.of(WorkloadKind.PYTORCH_JOB, WorkloadKind.TRAIN_JOB)) {
            trainingJobs.put(
                    kind,
                    factory.sharedIndexInformerFor(
                            new GenericKubernetesApi<>(
                                    DynamicKubernetesObject.class,
                                    DynamicKubernetesListObject.class,
                                    kind.group(),
                                    kind.version(),
                                    kind.plural(),
                                    watchClient),
                            DynamicKubernetesObject.class,
                            0,
                            Namespaces.NAMESPACE_ALL,
                            quietWhenNotInstalled(kind)));
        }
    }

    /** A kind whose CRD is not installed is said once, at info; other failures are logged as they come. */
    private static <T> BiConsumer<Class<T>, Throwable> quietWhenNotInstalled(WorkloadKind kind) {
        AtomicBoolean said = new AtomicBoolean();
        return (type, failure) -> {
            if (failure instanceof ApiException api && api.getCode() == 404) {
                if (!said.getAndSet(true)) {
                    LOG.info(
                            "no {} resource in this cluster (Kubeflow's CRD not installed); jobs of that kind are judged"
                                    + " by their pods alone, and the watch starts when the CRD is installed",
                            kind.kind());
                }
                return;
            }
            LOG.warn("watching {}s failed, retrying: {}", kind.kind(), failure.toString());
        };
    }

    /**
     * Starts every informer and waits until each has listed its objects once, so that the first decision already
     * sees the whole cluster (after a restart: every record, Job and reservation pod that exists).
     *
     * @throws IllegalStateException when they have not synced within {@code timeout}
     */
    public void start(Duration timeout) {
        factory.startAllRegisteredInformers();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (SharedIndexInformer<?> informer : List.of(nodes, pods, jobs, gpuJobs)) {
            while (!informer.hasSynced()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the Kubernetes caches did not sync within " + timeout + " (service "
                                    + "namespace " + namespace
                                    + "); check that the API server is reachable, the GpuJob CRD is installed "
                                    + "(kubectl apply -f deploy/) and the service account may list nodes, pods, jobs and gpujobs");
                }
                sleep();
            }
        }
        LOG.info(
                "Kubernetes caches synced: {} nodes, {} managed pods, {} jobs, {} GpuJobs (service namespace {})",
                nodes.getIndexer().list().size(),
                pods.getIndexer().list().size(),
                jobs.getIndexer().list().size(),
                gpuJobs.getIndexer().list().size(),
                namespace);
    }

    public SharedIndexInformer<V1Node> nodes() {
        return nodes;
    }

    public SharedIndexInformer<V1Pod> pods() {
        return pods;
    }

    public SharedIndexInformer<V1Job> jobs() {
        return jobs;
    }

    public SharedIndexInformer<GpuJobResource> gpuJobs() {
        return gpuJobs;
    }

    /** The cached training jobs of the kinds whose caches have synced (none without Kubeflow's CRDs). */
    public List<DynamicKubernetesObject> trainingJobs() {
        return trainingJobs.values().stream()
                .filter(SharedIndexInformer::hasSynced)
                .flatMap(informer -> informer.getIndexer().list().stream())
                .toList();
    }

    public String namespace() {
        return namespace;
    }

    @Override
    public void close() {
        factory.stopAllRegisteredInformers();
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kubernetes caches to sync", e);
        }
    }
}

package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;
import static io.quotient.it.harness.KubeCalls.retryOnConflict;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.PatchUtils;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays the kubelet (and the device plugin, and the node enforcer's reporting) for every fake GPU node
 * (label {@code quotient.io/fake-node=true}). Like a real kubelet it watches its nodes and their pods
 * (informers) instead of listing them, so that it costs the API server and the test JVM next to nothing while
 * hundreds of pods exist (a benchmark shares these two cores with it); a pass over the caches a few times a
 * second acts on what changed. One runs per test JVM, from the control plane's start
 * ({@link ControlPlane#fakeKubelet()}):
 * <ul>
 *   <li>a pod bound to a fake node gets its GPUs (reservation pods: the {@code quotient.io/gpu-uuid}
 *       annotation, a distinct GPU of that node) and then a Running status with container IDs and an IP;</li>
 *   <li>a pod being deleted is removed at once (grace 0), as a kubelet does once containers stopped;</li>
 *   <li>{@link #succeed}/{@link #fail} finish a pod on demand;</li>
 *   <li>each node's {@code quotient.io/gpu-report} gets a fresh {@code updatedAt} every 15 s, unless
 *       {@link #stopReporting} made it go stale.</li>
 * </ul>
 */
public final class FakeKubelet implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FakeKubelet.class.getName());
    private static final Duration TICK = Duration.ofMillis(250);
    private static final Duration REPORT_REFRESH = Duration.ofSeconds(15);
    private static final String FAKE_NODE_SELECTOR = Conventions.FAKE_NODE_LABEL + "=true";

    private final ApiClient client;
    private final CoreV1Api api;
    private final ScheduledExecutorService loop;
    private final SharedInformerFactory informers;
    private final SharedIndexInformer<V1Node> nodeCache;
    private final SharedIndexInformer<V1Pod> podCache;
    /** Pods started (or being removed) by this kubelet whose change the caches may not show yet (pod UIDs). */
    private final Set<String> started = new HashSet<>();

    private final Set<String> removed = new HashSet<>();
    private final FakeDevicePlugin devicePlugin = new FakeDevicePlugin();
    private final Set<String> silentNodes = ConcurrentHashMap.newKeySet();
    private final AtomicInteger nextPodIp = new AtomicInteger(1);
    private String lastFailure;

    private FakeKubelet(ApiClient client) {
        this.client = client;
        this.api = new CoreV1Api(client);
        this.loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fake-kubelet");
            thread.setDaemon(true);
            return thread;
        });
        this.informers = new SharedInformerFactory(client);
        this.nodeCache = informers.sharedIndexInformerFor(
                params -> api.listNode()
                        .labelSelector(FAKE_NODE_SELECTOR)
                        .resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds)
                        .watch(params.watch)
                        .buildCall(null),
                V1Node.class,
                V1NodeList.class);
        this.podCache = informers.sharedIndexInformerFor(
                params -> api.listPodForAllNamespaces()
                        .fieldSelector("spec.nodeName!=")
                        .resourceVersion(params.resourceVersion)
                        .timeoutSeconds(params.timeoutSeconds)
                        .watch(params.watch)
                        .buildCall(null),
                V1Pod.class,
                V1PodList.class);
    }

    /**
     * Started once per JVM by {@link ControlPlane}: two kubelets on one node would hand out GPUs twice. The
     * client must have no read timeout (it serves watches).
     */
    static FakeKubelet start(ApiClient client) {
        FakeKubelet kubelet = new FakeKubelet(client);
        kubelet.informers.startAllRegisteredInformers();
        Await.until(
                "the fake kubelet's caches to sync",
                () -> kubelet.nodeCache.hasSynced() && kubelet.podCache.hasSynced(),
                synced -> synced);
        kubelet.loop.scheduleWithFixedDelay(kubelet::tickSafely, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return kubelet;
    }

    /** Ends the pod's containers with exit code 0: phase Succeeded. */
    public V1Pod succeed(String namespace, String podName) {
        return finish(namespace, podName, true, 0);
    }

    /** Ends the pod's containers with {@code exitCode} (non-zero): phase Failed. */
    public V1Pod fail(String namespace, String podName, int exitCode) {
        if (exitCode == 0) {
            throw new IllegalArgumentException(
                    "a failed pod needs a non-zero exit code; use succeed() for exit code 0");
        }
        return finish(namespace, podName, false, exitCode);
    }

    /** From now on the node's GPU report is no longer refreshed, so it goes stale as when its enforcer dies. */
    public void stopReporting(String nodeName) {
        silentNodes.add(nodeName);
    }

    /** The node's report is refreshed again from the next pass on, as when its enforcer comes back. */
    public void resumeReporting(String nodeName) {
        silentNodes.remove(nodeName);
    }

    @Override
    public void close() {
        informers.stopAllRegisteredInformers();
        loop.shutdownNow();
        try {
            loop.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private V1Pod finish(String namespace, String podName, boolean succeeded, int exitCode) {
        return retryOnConflict("finishing pod " + namespace + "/" + podName, () -> {
            V1Pod pod = api.readNamespacedPod(podName, namespace).execute();
            if (pod.getSpec().getNodeName() == null) {
                throw new IllegalStateException("pod " + namespace + "/" + podName
                        + " is not bound to a node yet, so no kubelet could have run it; wait until it is scheduled");
            }
            pod.setStatus(FakePodStatuses.finished(pod, succeeded, exitCode, now()));
            return api.replaceNamespacedPodStatus(podName, namespace, pod).execute();
        });
    }

    private void tickSafely() {
        try {
            tick();
            lastFailure = null;
        } catch (RuntimeException e) {
            // A controller raced us or the server hiccupped: the next tick sees fresh state and tries again.
            // A failure that repeats is logged once, so a test that times out shows why its pods never ran.
            Throwable cause = e.getCause();
            if (cause instanceof ApiException api && api.getCode() == KubeCalls.CONFLICT) {
                return; // someone else updated the pod since we listed it: routine
            }
            String failure = cause instanceof ApiException api
                    ? "HTTP " + api.getCode() + " " + api.getResponseBody()
                    : e.toString();
            if (!failure.equals(lastFailure)) {
                LOG.log(
                        Level.WARNING,
                        "fake kubelet: a pass over the fake nodes failed (retrying every {0} ms): {1}",
                        TICK.toMillis(),
                        failure);
            }
            lastFailure = failure;
        }
    }

    private void tick() {
        Map<String, V1Node> nodes = new HashMap<>();
        for (V1Node node : nodeCache.getIndexer().list()) {
            nodes.put(node.getMetadata().getName(), node);
        }
        refreshReports(nodes.values());
        Map<String, List<V1Pod>> liveByNode = new HashMap<>();
        Set<String> present = new HashSet<>();
        List<V1Pod> toDelete = new ArrayList<>();
        for (V1Pod pod : podCache.getIndexer().list()) {
            present.add(pod.getMetadata().getUid());
            if (!nodes.containsKey(pod.getSpec().getNodeName())) {
                continue;
            }
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                toDelete.add(pod);
            } else if (!isFinished(pod)) {
                liveByNode
                        .computeIfAbsent(pod.getSpec().getNodeName(), n -> new ArrayList<>())
                        .add(pod);
            }
        }
        // the cache lags our own writes by a moment: what we did stays done until the pod is gone
        started.retainAll(present);
        removed.retainAll(present);
        toDelete.stream().filter(pod -> removed.add(pod.getMetadata().getUid())).forEach(this::removeTerminating);
        Set<String> liveUids = new HashSet<>();
        liveByNode
                .values()
                .forEach(pods -> pods.forEach(p -> liveUids.add(p.getMetadata().getUid())));
        devicePlugin.keepOnly(liveUids);
        liveByNode.forEach((nodeName, pods) -> {
            for (int i = 0; i < pods.size(); i++) {
                V1Pod pod = pods.get(i);
                if (!started.contains(pod.getMetadata().getUid())
                        && !"Running"
                                .equals(
                                        pod.getStatus() == null
                                                ? null
                                                : pod.getStatus().getPhase())) {
                    // The annotated copy goes back in the list, so the next pod in this tick sees that GPU taken.
                    pods.set(i, startPod(pod, nodes.get(nodeName), pods));
                }
            }
        });
    }

    private static boolean isFinished(V1Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return FakePodStatuses.SUCCEEDED.equals(phase) || FakePodStatuses.FAILED.equals(phase);
    }

    /**
     * Confirms a terminating pod's deletion, as the kubelet does once its containers stopped. A refused or unanswered
     * call is tried again on the next pass, like the real kubelet's sync loop: a pod left terminating would hold its
     * GPU for good (the soak saw one left after an API server restart, its job held Running with no pod).
     */
    private void removeTerminating(V1Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            deleteIgnoringMissing(
                    "finishing the deletion of pod " + namespace + "/" + name,
                    () -> api.deleteNamespacedPod(name, namespace)
                            .gracePeriodSeconds(0)
                            .buildCall(null));
        } catch (RuntimeException e) {
            removed.remove(pod.getMetadata().getUid());
            throw e;
        }
    }

    /** Gives the pod its GPUs and starts it; returns the pod as annotated (unchanged if nothing was done). */
    private V1Pod startPod(V1Pod pod, V1Node node, List<V1Pod> livePodsOnNode) {
        String where =
                pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        V1Pod current = pod;
        if (FakeDevicePlugin.requestedGpus(pod) > 0) {
            Optional<List<String>> gpus = devicePlugin.allocate(pod, nodeGpus(node), livePodsOnNode);
            if (gpus.isEmpty()) {
                LOG.log(
                        Level.WARNING,
                        "pod {0} on node {1} asks for more GPUs than are free there; leaving it Pending",
                        where,
                        node.getMetadata().getName());
                return pod;
            }
            if (FakeDevicePlugin.isReservation(pod)
                    && FakeDevicePlugin.reservedUuid(pod).isEmpty()) {
                current = annotateGpu(pod, gpus.get().get(0));
            }
        }
        V1Pod running = current;
        running.setStatus(FakePodStatuses.running(running, nextPodIp(), now()));
        V1Pod written = call(
                "starting pod " + where,
                () -> api.replaceNamespacedPodStatus(
                                running.getMetadata().getName(),
                                running.getMetadata().getNamespace(),
                                running)
                        .execute());
        started.add(pod.getMetadata().getUid());
        return written;
    }

    private V1Pod annotateGpu(V1Pod pod, String uuid) {
        JsonObject annotations = new JsonObject();
        annotations.addProperty(Conventions.GPU_UUID_ANNOTATION, uuid);
        String name = pod.getMetadata().getName();
        String namespace = pod.getMetadata().getNamespace();
        return call(
                "annotating reservation pod " + namespace + "/" + name + " with its GPU",
                () -> PatchUtils.patch(
                        V1Pod.class,
                        () -> api.patchNamespacedPod(
                                        name, namespace, new V1Patch(metadataPatch("annotations", annotations)))
                                .buildCall(null),
                        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                        client));
    }

    private void refreshReports(Iterable<V1Node> nodes) {
        Instant now = Instant.now();
        for (V1Node node : nodes) {
            String name = node.getMetadata().getName();
            Map<String, String> annotations = node.getMetadata().getAnnotations();
            String report = annotations == null ? null : annotations.get(Conventions.GPU_REPORT_ANNOTATION);
            if (report == null
                    || silentNodes.contains(name)
                    || FakeGpuReports.updatedAt(report).isAfter(now.minus(REPORT_REFRESH))) {
                continue;
            }
            JsonObject patch = new JsonObject();
            patch.addProperty(Conventions.GPU_REPORT_ANNOTATION, FakeGpuReports.refreshed(report, now));
            call(
                    "refreshing the GPU report of node " + name,
                    () -> PatchUtils.patch(
                            V1Node.class,
                            () -> api.patchNode(name, new V1Patch(metadataPatch("annotations", patch)))
                                    .buildCall(null),
                            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                            client));
        }
    }

    private static List<String> nodeGpus(V1Node node) {
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        String report = annotations == null ? null : annotations.get(Conventions.GPU_REPORT_ANNOTATION);
        return report == null ? List.of() : FakeGpuReports.uuidsIn(report);
    }

    private static String metadataPatch(String field, JsonObject value) {
        JsonObject metadata = new JsonObject();
        metadata.add(field, value);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        return patch.toString();
    }

    private String nextPodIp() {
        int n = nextPodIp.getAndIncrement();
        return "10.244." + ((n >> 8) & 0xff) + "." + (n & 0xff);
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}

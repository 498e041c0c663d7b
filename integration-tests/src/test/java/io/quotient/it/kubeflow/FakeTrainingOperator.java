package io.quotient.it.kubeflow;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Plays the Kubeflow Training Operator (PyTorchJob) and Trainer (TrainJob) in the test plane, as the fake kubelet
 * plays the kubelet: while a job is not suspended it has its replicas' pods (made from the replica specs, owned by
 * the job, so the garbage collector removes them with it); while it is suspended it has none, as the real
 * controllers delete a suspended job's pods. The real kube-scheduler binds the pods and the fake kubelet runs
 * them. A job whose replicas have all finished (every pod it should have exists and has Succeeded or Failed) is
 * finished for good: as the real controllers do, it gets its final condition in its status (a PyTorchJob
 * {@code Succeeded}, a TrainJob {@code Complete}, either {@code Failed} when a replica failed) and no pod again: a
 * finished pod deleted later (its node removed, the pod garbage collector) is not made again. A few list calls every
 * {@link #TICK}; nothing else.
 */
public final class FakeTrainingOperator implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FakeTrainingOperator.class.getName());
    private static final Duration TICK = Duration.ofMillis(300);

    private final DynamicKubernetesApi pytorchJobs;
    private final DynamicKubernetesApi trainJobs;
    private final DynamicKubernetesApi runtimes;
    private final DynamicKubernetesApi pods;
    private final CustomObjectsApi statuses;
    private final ScheduledExecutorService loop;
    private volatile String lastFailure;
    /** The uids of the jobs whose replicas all finished (kept by this operator only, as its status would be). */
    private final Set<String> finished = ConcurrentHashMap.newKeySet();

    private FakeTrainingOperator(ApiClient client) {
        pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", client);
        trainJobs = new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client);
        runtimes = new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", client);
        pods = new DynamicKubernetesApi("", "v1", "pods", client);
        statuses = new CustomObjectsApi(client);
        loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fake-training-operator");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Installs the Kubeflow CRDs if needed and starts reconciling every job of every namespace. */
    public static FakeTrainingOperator start(ApiClient client) {
        KubeflowCrds.install(client);
        FakeTrainingOperator operator = new FakeTrainingOperator(client);
        operator.loop.scheduleWithFixedDelay(operator::reconcileSafely, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return operator;
    }

    /** The last error a pass met (a pod the API server refused, a runtime that does not exist), or null. */
    public String lastFailure() {
        return lastFailure;
    }

    private void reconcileSafely() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            lastFailure = e.getMessage();
            LOG.log(Level.WARNING, "fake training operator pass failed: " + e.getMessage());
        }
    }

    private void reconcile() {
        Map<String, Map<String, String>> podsByOwner = new HashMap<>();
        ListOptions mine = new ListOptions();
        mine.setLabelSelector(TrainingPods.OPERATOR_LABEL + "=true");
        for (DynamicKubernetesObject pod : list(pods, mine)) {
            JsonObject raw = pod.getRaw();
            var references = raw.getAsJsonObject("metadata").getAsJsonArray("ownerReferences");
            if (references != null && !references.isEmpty()) {
                var status = raw.getAsJsonObject("status");
                String phase = status == null || !status.has("phase")
                        ? ""
                        : status.get("phase").getAsString();
                podsByOwner
                        .computeIfAbsent(
                                references.get(0).getAsJsonObject().get("uid").getAsString(), uid -> new HashMap<>())
                        .put(pod.getMetadata().getName(), phase);
            }
        }
        for (DynamicKubernetesObject job : list(pytorchJobs, new ListOptions())) {
            reconcileJob(
                    job, "Succeeded", PyTorchJobPods.suspended(job.getRaw()), podsByOwner, PyTorchJobPods::desired);
        }
        for (DynamicKubernetesObject job : list(trainJobs, new ListOptions())) {
            reconcileJob(
                    job,
                    "Complete",
                    TrainJobPods.suspended(job.getRaw()),
                    podsByOwner,
                    raw -> TrainJobPods.desired(raw, runtimeOf(raw)));
        }
    }

    /** One job's failure (a missing runtime, a refused pod) is remembered and does not hold back the others. */
    private void reconcileJob(
            DynamicKubernetesObject job,
            String successCondition,
            boolean suspended,
            Map<String, Map<String, String>> podsByOwner,
            Function<JsonObject, List<JsonObject>> desiredPods) {
        try {
            reconcileOne(job.getRaw(), suspended, podsByOwner, desiredPods)
                    .ifPresent(failed -> markFinished(job, failed ? "Failed" : successCondition));
        } catch (RuntimeException e) {
            lastFailure = e.getMessage();
            LOG.log(Level.WARNING, "fake training operator: " + e.getMessage());
        }
    }

    /** @return whether a replica failed, once the job has just been seen finished; empty otherwise */
    private Optional<Boolean> reconcileOne(
            JsonObject job,
            boolean suspended,
            Map<String, Map<String, String>> podsByOwner,
            Function<JsonObject, List<JsonObject>> desiredPods) {
        String namespace = job.getAsJsonObject("metadata").get("namespace").getAsString();
        String uid = TrainingPods.uid(job);
        Map<String, String> existing = podsByOwner.getOrDefault(uid, Map.of());
        if (suspended) {
            existing.keySet().forEach(name -> pods.delete(namespace, name));
            return Optional.empty();
        }
        if (finished.contains(uid)) {
            return Optional.empty();
        }
        List<JsonObject> desired = desiredPods.apply(job);
        if (!desired.isEmpty() && desired.stream().allMatch(pod -> isFinished(existing.get(name(pod))))) {
            finished.add(uid);
            return Optional.of(desired.stream().anyMatch(pod -> "Failed".equals(existing.get(name(pod)))));
        }
        for (JsonObject pod : desired) {
            if (!existing.containsKey(name(pod))) {
                KubernetesApiResponse<DynamicKubernetesObject> created = pods.create(new DynamicKubernetesObject(pod));
                // a job left in a namespace being deleted (an earlier test class's) goes with it: not this pass's
                // failure
                if (!created.isSuccess() && created.getHttpStatusCode() != 409 && !namespaceTerminating(created)) {
                    throw new IllegalStateException("creating pod " + name(pod)
                            + " of " + job.get("kind").getAsString() + " " + namespace + "/" + TrainingPods.name(job)
                            + " failed: HTTP " + created.getHttpStatusCode() + " "
                            + created.getStatus().getMessage());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Writes the final condition as the real controllers do (after Created), replacing the status through its
     * subresource; a write refused (a conflict with Quotient's patch) is retried on a later pass.
     */
    private void markFinished(DynamicKubernetesObject job, String condition) {
        JsonObject raw = job.getRaw().deepCopy();
        JsonArray conditions = new JsonArray();
        for (String type : List.of("Created", condition)) {
            JsonObject entry = new JsonObject();
            entry.addProperty("type", type);
            entry.addProperty("status", "True");
            entry.addProperty("reason", "FakeTrainingOperator");
            entry.addProperty("message", "every replica's pod has finished");
            entry.addProperty(
                    "lastTransitionTime",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            conditions.add(entry);
        }
        JsonObject status = new JsonObject();
        status.add("conditions", conditions);
        raw.add("status", status);
        String kind = raw.get("kind").getAsString();
        String[] groupVersion = raw.get("apiVersion").getAsString().split("/");
        String plural = kind.toLowerCase(Locale.ROOT) + "s";
        try {
            statuses.replaceNamespacedCustomObjectStatus(
                            groupVersion[0],
                            groupVersion[1],
                            job.getMetadata().getNamespace(),
                            plural,
                            job.getMetadata().getName(),
                            raw)
                    .execute();
        } catch (ApiException e) {
            finished.remove(TrainingPods.uid(job.getRaw()));
            LOG.log(
                    Level.INFO,
                    "fake training operator: writing " + condition + " on " + kind + " "
                            + job.getMetadata().getName() + " failed (HTTP " + e.getCode()
                            + "), retried on a later pass");
        }
    }

    private static String name(JsonObject pod) {
        return pod.getAsJsonObject("metadata").get("name").getAsString();
    }

    private static boolean isFinished(String podPhase) {
        return "Succeeded".equals(podPhase) || "Failed".equals(podPhase);
    }

    private static boolean namespaceTerminating(KubernetesApiResponse<DynamicKubernetesObject> refused) {
        String message =
                refused.getStatus() == null ? null : refused.getStatus().getMessage();
        return refused.getHttpStatusCode() == 403
                && message != null
                && message.contains("because it is being terminated");
    }

    private JsonObject runtimeOf(JsonObject trainJob) {
        var reference = TrainingPods.at(trainJob, "spec", "runtimeRef", "name");
        var kind = TrainingPods.at(trainJob, "spec", "runtimeRef", "kind");
        if (kind != null && !"ClusterTrainingRuntime".equals(kind.getAsString())) {
            throw new IllegalStateException("the fake trainer plays only ClusterTrainingRuntime, not " + kind);
        }
        DynamicKubernetesObject runtime = runtimes.get(reference.getAsString()).getObject();
        if (runtime == null) {
            throw new IllegalStateException("ClusterTrainingRuntime " + reference.getAsString() + " does not exist");
        }
        return runtime.getRaw();
    }

    private static List<DynamicKubernetesObject> list(DynamicKubernetesApi api, ListOptions options) {
        KubernetesApiResponse<DynamicKubernetesListObject> response = api.list(options);
        if (!response.isSuccess()) {
            throw new IllegalStateException("listing failed: HTTP " + response.getHttpStatusCode() + " "
                    + response.getStatus().getMessage());
        }
        return response.getObject().getItems();
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}

package io.quotient.it.soak;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Conventions;
import io.quotient.it.soak.Observation.DecisionEvent;
import io.quotient.it.soak.Observation.LeaseState;
import io.quotient.it.soak.Observation.ObservedJob;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Reads one {@link Observation} straight from the API server (never through the service). */
final class ClusterReader {

    private static final String TEAM = "quotient.io/team";
    private static final String JOB = "quotient.io/job";

    private final CoreV1Api core;
    private final BatchV1Api batch;
    private final CoordinationV1Api coordination;
    private final DynamicKubernetesApi gpuJobs;
    private final String namespace;
    private final String nodePrefix;
    private final long gpuMemoryMib;
    private final History history;
    private final Set<String> seenEvents = new HashSet<>();
    private final KubeflowReader kubeflow;

    /** @param teamOfNamespace each team's own namespace (where its Kubeflow objects go) → the team */
    ClusterReader(
            ApiClient client,
            String namespace,
            Map<String, String> teamOfNamespace,
            String nodePrefix,
            long gpuMemoryMib,
            History history) {
        this.kubeflow = new KubeflowReader(client, teamOfNamespace);
        this.core = new CoreV1Api(client);
        this.batch = new BatchV1Api(client);
        this.coordination = new CoordinationV1Api(client);
        this.gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
        this.namespace = namespace;
        this.nodePrefix = nodePrefix;
        this.gpuMemoryMib = gpuMemoryMib;
        this.history = history;
    }

    Observation read() throws ApiException {
        long t = history.now();
        var listed = gpuJobs.list();
        if (!listed.isSuccess()) {
            throw new ApiException(listed.getHttpStatusCode(), "listing GpuJobs failed: " + listed.getStatus());
        }
        List<ObservedJob> jobs = new ArrayList<>();
        for (DynamicKubernetesObject gpuJob : listed.getObject().getItems()) {
            if (mine(gpuJob.getMetadata().getNamespace())) {
                jobs.add(job(gpuJob.getRaw()));
            }
        }
        List<KubeflowLook.Workload> kubeflowWorkloads = kubeflow.workloads();
        List<String> workloads = new ArrayList<>();
        for (V1Job job : batch.listNamespacedJob(namespace).execute().getItems()) {
            if (job.getMetadata().getDeletionTimestamp() == null) {
                workloads.add(
                        owner(job.getMetadata().getLabels(), job.getMetadata().getName()));
            }
        }
        Map<String, Integer> livePods = new TreeMap<>();
        List<String> reservations = new ArrayList<>();
        List<KubeflowLook.NotebookPod> notebooks = new ArrayList<>();
        Map<String, List<String>> podNodes = new TreeMap<>();
        for (V1Pod pod : core.listPodForAllNamespaces().execute().getItems()) {
            Map<String, String> labels = pod.getMetadata().getLabels() == null
                    ? Map.of()
                    : pod.getMetadata().getLabels();
            if (pod.getMetadata().getDeletionTimestamp() != null
                    || !mine(pod.getMetadata().getNamespace())) {
                continue;
            }
            boolean live = "Pending".equals(pod.getStatus().getPhase())
                    || "Running".equals(pod.getStatus().getPhase());
            KubeflowLook.NotebookPod notebook = live ? kubeflow.notebook(pod) : null;
            if (notebook != null) {
                notebooks.add(notebook);
            }
            if (labels.containsKey(TEAM)
                    && "Running".equals(pod.getStatus().getPhase())
                    && pod.getSpec().getNodeName() != null) {
                podNodes.computeIfAbsent(owner(labels, pod.getMetadata().getName()), k -> new ArrayList<>())
                        .add(pod.getSpec().getNodeName());
            }
            if (Conventions.RESERVATION_ROLE.equals(labels.get(Conventions.ROLE_LABEL))) {
                reservations.add(pod.getMetadata().getAnnotations().get("quotient.io/node") + "/"
                        + labels.get("quotient.io/gpu-index"));
            } else if (labels.containsKey(TEAM)
                    && ("Pending".equals(pod.getStatus().getPhase())
                            || "Running".equals(pod.getStatus().getPhase()))) {
                livePods.merge(owner(labels, pod.getMetadata().getName()), 1, Integer::sum);
            }
        }
        Map<String, Integer> nodes = new TreeMap<>();
        for (V1Node node : core.listNode()
                .labelSelector(Conventions.FAKE_NODE_LABEL + "=true")
                .execute()
                .getItems()) {
            String name = node.getMetadata().getName();
            if (name.startsWith(nodePrefix) && node.getMetadata().getDeletionTimestamp() == null) {
                var gpus = node.getStatus().getCapacity() == null
                        ? null
                        : node.getStatus().getCapacity().get(Conventions.GPU_RESOURCE);
                nodes.put(name, gpus == null ? 0 : gpus.getNumber().intValue());
            }
        }
        podNodes.values().removeIf(list -> list.size() < 2);
        return new Observation(
                t,
                jobs,
                workloads,
                livePods,
                reservations,
                nodes,
                lease(),
                newEvents(),
                new KubeflowLook(kubeflowWorkloads, notebooks, podNodes));
    }

    /** The soak's shared namespace or a team's own. */
    private boolean mine(String namespace) {
        return this.namespace.equals(namespace) || kubeflow.teamNamespace(namespace);
    }

    private ObservedJob job(JsonObject raw) {
        JsonObject spec = raw.getAsJsonObject("spec");
        JsonObject status = raw.has("status") ? raw.getAsJsonObject("status") : new JsonObject();
        List<int[]> gpus = new ArrayList<>();
        for (JsonElement gpu : Observation.array(status, "gpus")) {
            JsonObject g = gpu.getAsJsonObject();
            gpus.add(new int[] {
                g.get("index").getAsInt(), (int) Math.round(g.get("fraction").getAsDouble() * 1000)
            });
        }
        int replicas = spec.has("replicas") ? spec.get("replicas").getAsInt() : 1;
        return new ObservedJob(
                Observation.text(spec, "team"),
                Observation.text(spec, "name"),
                Observation.text(status, "phase"),
                Observation.text(status, "node"),
                gpus,
                Observation.text(status, "quotaState"),
                Observation.text(status, "reason"),
                demandMilli(spec) * replicas,
                replicas,
                Observation.others(status));
    }

    /** What the job asks for, in milli-GPUs (MiB counted on the soak's one GPU model). */
    private long demandMilli(JsonObject spec) {
        JsonObject gpu = spec.has("gpu") ? spec.getAsJsonObject("gpu") : new JsonObject();
        int devices = spec.has("gpuDevices") ? spec.get("gpuDevices").getAsInt() : 1;
        if (gpu.has("count")) {
            return gpu.get("count").getAsLong() * 1000;
        }
        if (gpu.has("fraction")) {
            return Math.round(gpu.get("fraction").getAsDouble() * 1000) * devices;
        }
        if (gpu.has("memoryMib")) {
            return (long) Math.ceil(gpu.get("memoryMib").getAsDouble() * 1000 / gpuMemoryMib) * devices;
        }
        return 0;
    }

    private static String owner(Map<String, String> labels, String name) {
        return labels != null && labels.containsKey(TEAM) && labels.containsKey(JOB)
                ? labels.get(TEAM) + "/" + labels.get(JOB)
                : "?" + name;
    }

    private LeaseState lease() throws ApiException {
        V1Lease lease;
        try {
            lease = coordination
                    .readNamespacedLease("quotient-leader", namespace)
                    .execute();
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
        var spec = lease.getSpec();
        return new LeaseState(
                spec.getHolderIdentity(),
                millis(spec.getAcquireTime()),
                millis(spec.getRenewTime()),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions());
    }

    private List<DecisionEvent> newEvents() throws ApiException {
        List<DecisionEvent> events = new ArrayList<>();
        for (CoreV1Event event : core.listNamespacedEvent(namespace).execute().getItems()) {
            if (!"quotient.io/quotient".equals(event.getReportingComponent())
                    || !seenEvents.add(event.getMetadata().getName())) {
                continue;
            }
            OffsetDateTime at = event.getFirstTimestamp() != null
                    ? event.getFirstTimestamp()
                    : event.getMetadata().getCreationTimestamp();
            events.add(new DecisionEvent(
                    event.getReportingInstance(),
                    event.getReason(),
                    millis(at),
                    event.getInvolvedObject().getName()));
        }
        return events;
    }

    private long millis(OffsetDateTime time) {
        return time == null ? -1 : history.since(time.toInstant().toEpochMilli());
    }
}

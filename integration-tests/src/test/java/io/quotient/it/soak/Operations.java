package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.deploy.QuotientApi;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.KubeCalls;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The soak's operations, drawn from one seeded random stream: deploys of every kind by several teams (gangs of
 * PyTorchJob replicas included; Kubeflow objects created directly in a team's namespace, {@link KubeflowOperations}),
 * deletes,
 * workloads finishing and failing (the fake kubelet), guarantees raised and lowered, nodes added, cordoned,
 * uncordoned and removed (busy ones too unless {@link SoakSettings#removeBusyNodes()} is off: Quotient re-queues
 * the jobs of a node that leaves the cluster), node reports going stale and fresh again. Each one is written to the history with its
 * answer; a REST call that gets no answer (the replica died or paused under it) is recorded with status -1.
 */
final class Operations {

    static final String NODE_PREFIX = "soak";
    static final long GPU_MEMORY_MIB = 81_920;
    static final int GANG_REPLICAS = 2;
    private static final String MODEL = "NVIDIA-H100-80GB-HBM3";

    private final SoakSettings settings;
    private final Random random;
    private final History history;
    private final List<Replica> replicas;
    private final TeamsConfig teams;
    private final List<String> teamNames;
    private final FakeGpuNodes nodes;
    private final FakeKubelet kubelet;
    private final CoreV1Api core;
    private final io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi gpuJobs;
    private final String namespace;
    private final Map<String, List<String>> jobs = new java.util.HashMap<>();
    private final List<String> nodeNames = new ArrayList<>();
    private final Set<String> cordoned = new HashSet<>();
    private final Set<String> silent = new HashSet<>();
    private final KubeflowOperations kubeflow;
    private int deploys;

    Operations(SoakSettings settings, History history, List<Replica> replicas, TeamsConfig teams,
               List<String> teamNames, FakeGpuNodes nodes, FakeKubelet kubelet, ApiClient client, String namespace,
               KubeflowOperations kubeflow) {
        this.settings = settings;
        this.random = new Random(settings.seed());
        this.history = history;
        this.replicas = replicas;
        this.teams = teams;
        this.teamNames = teamNames;
        this.nodes = nodes;
        this.kubelet = kubelet;
        this.core = new CoreV1Api(client);
        this.gpuJobs = new io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi("quotient.io", "v1alpha1",
                "gpujobs", client);
        this.namespace = namespace;
        this.kubeflow = kubeflow;
        teamNames.forEach(team -> jobs.put(team, new ArrayList<>()));
    }

    void addInitialNodes() {
        for (int i = 0; i < settings.nodes(); i++) {
            nodeNames.add(newNode());
        }
    }

    /** One operation, drawn by weight; returns its name. */
    String next() throws ApiException {
        recreateNotebooks();
        int draw = random.nextInt(100);
        if (draw < 40) {
            return deploy();
        } else if (draw < 45) {
            return burst();
        } else if (draw < 54) {
            return delete();
        } else if (draw < 66) {
            return finish(true);
        } else if (draw < 72) {
            return finish(false);
        } else if (draw < 77) {
            return guarantee();
        }
        return nodeOperation(random.nextInt(6));
    }

    /** Notebook pods refused at admission or deleted by Quotient are created again (their controller's part). */
    void recreateNotebooks() {
        kubeflow.retryHeld();
    }

    /** After the chaos: every node schedulable and reporting again, and at least as many nodes as at the start. */
    void restoreCapacity() throws ApiException {
        for (String node : List.copyOf(cordoned)) {
            cordon(node, false);
        }
        for (String node : List.copyOf(silent)) {
            kubelet.resumeReporting(node);
            silent.remove(node);
            record("fresh-report", node);
        }
        while (nodeNames.size() < settings.nodes()) {
            String node = newNode();
            nodeNames.add(node);
            record("node-add", node);
        }
    }

    /** One team deploys four two-GPU jobs at once: demand beyond the idle capacity, so guarantees are reclaimed. */
    private String burst() {
        String team = pick(teamNames);
        for (int i = 0; i < 4; i++) {
            deploy(team, "whole", Map.of("count", 2), Map.of());
        }
        return "burst";
    }

    private String deploy() {
        String team = pick(teamNames);
        Map<String, Object> gpu;
        Map<String, Object> extra = Map.of();
        String kind;
        int k = random.nextInt(100);
        if (k < 28) {
            kind = "whole";
            gpu = Map.of("count", 1 + random.nextInt(2));
        } else if (k < 50) {
            kind = "fraction";
            double fraction = (1 + random.nextInt(5)) / 10.0;
            gpu = Map.of("fraction", fraction, "fractionLimit", Math.min(1.0, fraction + random.nextInt(4) / 10.0));
        } else if (k < 64) {
            kind = "mib";
            long mib = 4096L * (1 + random.nextInt(5));
            gpu = Map.of("memoryMib", mib, "memoryLimitMib", Math.min(GPU_MEMORY_MIB, mib * 3 / 2));
        } else if (k < 74) {
            kind = "multi-fraction";
            double fraction = random.nextBoolean() ? 0.25 : 0.5;
            gpu = Map.of("fraction", fraction, "fractionLimit", fraction);
            extra = Map.of("gpuDevices", 2);
        } else if (k < 84) {
            // distributed training: 2 replicas on 2 nodes, run by the fake training operator
            kind = "gang";
            gpu = Map.of("count", 1 + random.nextInt(2));
            extra = Map.of("template", "pytorchjob", "replicas", GANG_REPLICAS);
        } else if (k < 90) {
            return kubeflow.pyTorchJob(team, 1 + random.nextInt(2), 1 + random.nextInt(2));
        } else if (k < 95) {
            return kubeflow.trainJob(team, 1 + random.nextInt(2), 1 + random.nextInt(2));
        } else {
            return kubeflow.notebook(team);
        }
        deploy(team, kind, gpu, extra);
        return "deploy";
    }

    private void deploy(String team, String kind, Map<String, Object> gpu, Map<String, Object> extra) {
        String name = "j" + (++deploys);
        Map<String, Object> body = io.quotient.it.deploy.Requests.body(name, gpu);
        body.putAll(extra);
        JsonObject entry = history.entry("op");
        entry.addProperty("op", "deploy");
        entry.addProperty("team", team);
        entry.addProperty("job", name);
        entry.addProperty("kind", kind);
        Replica replica = availableReplica();
        entry.addProperty("replica", replica == null ? null : replica.name());
        QuotientApi.Answer answer = replica == null ? null : call(replica, api -> api.deploy(team, body));
        entry.addProperty("status", answer == null ? -1 : answer.status());
        if (answer != null && answer.body().isJsonObject()) {
            entry.addProperty("phase", answer.text("phase"));
        }
        entry.addProperty("t", history.now());
        history.write(entry);
        jobs.get(team).add(name);
    }

    private String delete() {
        String team = pick(teamNames);
        List<String> mine = jobs.get(team);
        if (kubeflow.has(team) && (mine.isEmpty() || random.nextInt(4) == 0)) {
            return kubeflow.delete(team, random.nextInt(1000));
        }
        if (mine.isEmpty()) {
            return "none";
        }
        String name = mine.remove(random.nextInt(mine.size()));
        JsonObject entry = history.entry("op");
        entry.addProperty("op", "delete");
        entry.addProperty("team", team);
        entry.addProperty("job", name);
        history.write(entry); // the request counts from when it is sent: the record may go before the answer
        Replica replica = availableReplica();
        QuotientApi.Answer answer = replica == null ? null : call(replica, api -> api.delete(team, name));
        JsonObject answered = history.entry("op-answer");
        answered.addProperty("op", "delete");
        answered.addProperty("team", team);
        answered.addProperty("job", name);
        answered.addProperty("status", answer == null ? -1 : answer.status());
        history.write(answered);
        if (answer == null || answer.status() == 503) {
            mine.add(name); // not done, or only partly (the API server did not answer): the owner deletes it again later
        }
        return "delete";
    }

    /** Lets a running pod of a random job exit 0 or fail (exit 1), as its container would. */
    private String finish(boolean success) throws ApiException {
        String team = pick(teamNames);
        List<String> mine = jobs.get(team);
        if (mine.isEmpty()) {
            return "none";
        }
        String name = pick(mine);
        List<V1Pod> running = core.listNamespacedPod(namespace)
                .labelSelector("quotient.io/team=" + team + ",quotient.io/job=" + name).execute().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && "Running".equals(p.getStatus().getPhase()))
                .toList();
        if (running.isEmpty()) {
            return "none";
        }
        String pod = running.get(0).getMetadata().getName();
        if (success) {
            kubelet.succeed(namespace, pod);
        } else {
            kubelet.fail(namespace, pod, 1);
        }
        JsonObject entry = history.entry("op");
        entry.addProperty("op", success ? "finish" : "fail");
        entry.addProperty("team", team);
        entry.addProperty("job", name);
        entry.addProperty("pod", pod);
        history.write(entry);
        return success ? "finish" : "fail";
    }

    /** Raises or lowers a team's guarantee, keeping the sum of guarantees within 75% of the nodes' GPUs. */
    private String guarantee() {
        String team = pick(teamNames);
        long share = settings.capacityMilli() * 6 / 10 / teamNames.size();
        long wanted = Math.max(500, Math.round(share * (0.25 + random.nextDouble() * 1.25) / 500) * 500);
        long others = teams.total() - teams.guarantees().getOrDefault(team, 0L);
        long milli = Math.min(wanted, settings.capacityMilli() * 3 / 4 - others);
        if (milli < 500) {
            return "none";
        }
        teams.set(team, milli);
        JsonObject entry = history.entry("op");
        entry.addProperty("op", "guarantee");
        entry.addProperty("team", team);
        entry.addProperty("milli", milli);
        history.write(entry);
        return "guarantee";
    }

    private String nodeOperation(int which) throws ApiException {
        List<String> schedulable = nodeNames.stream().filter(n -> !cordoned.contains(n)).toList();
        switch (which) {
            case 0 -> {
                if (nodeNames.size() >= settings.nodes() + 4) {
                    return "none";
                }
                String node = newNode();
                nodeNames.add(node);
                return record("node-add", node);
            }
            case 1 -> {
                if (schedulable.size() <= settings.nodes() - 4) {
                    return "none";
                }
                cordon(pick(schedulable), true);
                return "cordon";
            }
            case 2 -> {
                if (cordoned.isEmpty()) {
                    return "none";
                }
                cordon(pick(List.copyOf(cordoned)), false);
                return "uncordon";
            }
            case 3 -> {
                if (nodeNames.size() <= settings.nodes() - 3) {
                    return "none";
                }
                String node = pick(nodeNames);
                if (!settings.removeBusyNodes()) {
                    if (!cordoned.contains(node)) {
                        cordon(node, true); // no new placements there while it is found idle
                    }
                    sleepQuietly(2000);
                    if (busy(node)) {
                        return "cordon"; // left cordoned: busy nodes are removed only with removeBusyNodes on
                    }
                }
                nodeNames.remove(node);
                cordoned.remove(node);
                silent.remove(node);
                nodes.delete(node);
                return record("node-remove", node);
            }
            case 4 -> {
                List<String> reporting = nodeNames.stream().filter(n -> !silent.contains(n)).toList();
                if (silent.size() >= 3 || reporting.isEmpty()) {
                    return "none";
                }
                String node = pick(reporting);
                kubelet.stopReporting(node);
                silent.add(node);
                return record("stale-report", node);
            }
            default -> {
                if (silent.isEmpty()) {
                    return "none";
                }
                String node = pick(List.copyOf(silent));
                kubelet.resumeReporting(node);
                silent.remove(node);
                return record("fresh-report", node);
            }
        }
    }

    /** Whether a job is placed on the node or any pod (a reservation included) is bound to it. */
    private boolean busy(String node) throws ApiException {
        if (!core.listPodForAllNamespaces().fieldSelector("spec.nodeName=" + node).execute().getItems().isEmpty()) {
            return true;
        }
        var listed = gpuJobs.list(); // adopted workloads' records are in the teams' own namespaces
        if (!listed.isSuccess()) {
            return true;
        }
        return listed.getObject().getItems().stream().map(j -> j.getRaw().getAsJsonObject("status"))
                .anyMatch(status -> status != null && node.equals(Observation.text(status, "node"))
                        && !"Succeeded".equals(Observation.text(status, "phase"))
                        && !"Failed".equals(Observation.text(status, "phase")));
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void cordon(String node, boolean unschedulable) {
        KubeCalls.retryOnConflict((unschedulable ? "cordoning " : "uncordoning ") + node, () -> {
            V1Node current = core.readNode(node).execute();
            current.getSpec().setUnschedulable(unschedulable);
            return core.replaceNode(node, current).execute();
        });
        if (unschedulable) {
            cordoned.add(node);
        } else {
            cordoned.remove(node);
        }
        record(unschedulable ? "cordon" : "uncordon", node);
    }

    private String newNode() {
        return nodes.create(FakeGpuNodeSpec.of(NODE_PREFIX, settings.gpusPerNode(), GPU_MEMORY_MIB, MODEL)).name();
    }

    private String record(String op, String node) {
        JsonObject entry = history.entry("op");
        entry.addProperty("op", op);
        entry.addProperty("node", node);
        history.write(entry);
        return op;
    }

    private Replica availableReplica() {
        List<Replica> up = replicas.stream().filter(Replica::available).toList();
        return up.isEmpty() ? null : pick(up);
    }

    /** A REST call that may find its replica dead or paused: null when no answer came. */
    static QuotientApi.Answer call(Replica replica, java.util.function.Function<QuotientApi, QuotientApi.Answer> call) {
        try {
            return replica.api().map(call).orElse(null);
        } catch (UncheckedIOException | IllegalStateException e) {
            return null;
        }
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}

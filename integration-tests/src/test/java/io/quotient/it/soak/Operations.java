package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.deploy.QuotientApi;
import io.quotient.it.deploy.Requests;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * The soak's operations, drawn from one seeded random stream: deploys of every kind by several teams (gangs of
 * PyTorchJob replicas included; Kubeflow objects created directly in a team's namespace, {@link KubeflowOperations}),
 * deletes,
 * workloads finishing and failing (the fake kubelet), guarantees raised and lowered, and the fleet's changes
 * ({@link NodeOperations}), all from the same stream. Each one is written to the history with its answer; a REST call that gets no answer (the replica died or paused under it) is recorded with status -1.
 */
final class Operations {

    static final String NODE_PREFIX = "soak";
    static final long GPU_MEMORY_MIB = 81_920;
    static final int GANG_REPLICAS = 2;

    private final SoakSettings settings;
    private final Random random;
    private final History history;
    private final List<Replica> replicas;
    private final TeamsConfig teams;
    private final List<String> teamNames;
    private final FakeKubelet kubelet;
    private final CoreV1Api core;
    private final String namespace;
    private final Map<String, List<String>> jobs = new HashMap<>();
    private final KubeflowOperations kubeflow;
    private final NodeOperations nodeOps;
    private int deploys;

    Operations(
            SoakSettings settings,
            History history,
            List<Replica> replicas,
            TeamsConfig teams,
            List<String> teamNames,
            FakeGpuNodes nodes,
            FakeKubelet kubelet,
            ApiClient client,
            String namespace,
            KubeflowOperations kubeflow) {
        this.settings = settings;
        this.random = new Random(settings.seed());
        this.history = history;
        this.replicas = replicas;
        this.teams = teams;
        this.teamNames = teamNames;
        this.kubelet = kubelet;
        this.core = new CoreV1Api(client);
        this.nodeOps = new NodeOperations(settings, random, history, nodes, kubelet, client);
        this.namespace = namespace;
        this.kubeflow = kubeflow;
        teamNames.forEach(team -> jobs.put(team, new ArrayList<>()));
    }

    void addInitialNodes() {
        nodeOps.addInitialNodes();
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
        return nodeOps.next(random.nextInt(6));
    }

    /** Notebook pods refused at admission or deleted by Quotient are created again (their controller's part). */
    void recreateNotebooks() {
        kubeflow.retryHeld();
    }

    /** After the chaos: every node schedulable and reporting again, and at least as many nodes as at the start. */
    void restoreCapacity() throws ApiException {
        nodeOps.restoreCapacity();
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
        Map<String, Object> body = Requests.body(name, gpu);
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
            mine.add(
                    name); // not done, or only partly (the API server did not answer): the owner deletes it again later
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
        List<V1Pod> running = core
                .listNamespacedPod(namespace)
                .labelSelector("quotient.io/team=" + team + ",quotient.io/job=" + name)
                .execute()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null
                        && "Running".equals(p.getStatus().getPhase()))
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

    private Replica availableReplica() {
        List<Replica> up = replicas.stream().filter(Replica::available).toList();
        return up.isEmpty() ? null : pick(up);
    }

    /** A REST call that may find its replica dead or paused: null when no answer came. */
    static QuotientApi.Answer call(Replica replica, Function<QuotientApi, QuotientApi.Answer> call) {
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

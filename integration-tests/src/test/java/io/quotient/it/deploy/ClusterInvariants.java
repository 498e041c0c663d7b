package io.quotient.it.deploy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.core.model.JobId;
import io.quotient.it.harness.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What must hold once the service has converged, whatever happened before (crashes, leader changes): every
 * record's workload matches its status, no Job without a record and no second Job for one, and reservation pods
 * exactly on the GPUs that placed fractions use.
 */
public final class ClusterInvariants {

    private ClusterInvariants() {}

    /** Waits until nothing is violated; fails listing the violations of the last look. */
    static void awaitConsistent(ClusterFacts cluster, Duration timeout) {
        Await.until("the cluster to be consistent with the records", timeout, () -> violations(cluster), List::isEmpty);
    }

    public static List<String> violations(ClusterFacts cluster) throws ApiException {
        List<String> violations = new ArrayList<>();
        Set<String> workloadNames = new HashSet<>();
        Set<String> neededReservations = new HashSet<>();
        for (DynamicKubernetesObject gpuJob : cluster.gpuJobs()) {
            JsonObject raw = gpuJob.getRaw();
            JsonObject spec = raw.getAsJsonObject("spec");
            String team = spec.get("team").getAsString();
            String name = spec.get("name").getAsString();
            workloadNames.add(KubernetesNames.ofWorkload(new JobId(team, name)));
            JsonObject status = raw.has("status") ? raw.getAsJsonObject("status") : new JsonObject();
            String phase = text(status, "phase");
            String node = text(status, "node");
            List<V1Pod> pods = cluster.livePodsOf(team, name);
            boolean holds = "Placed".equals(phase) || "Running".equals(phase);
            if (holds && !podsMatchPlacement(pods, placedNodes(status))) {
                violations.add(team + "/" + name + " is " + phase + " on " + placedNodes(status) + " but has live pods "
                        + describe(pods));
            }
            if (!holds && !"Succeeded".equals(phase) && !"Failed".equals(phase) && !pods.isEmpty()) {
                violations.add(team + "/" + name + " is " + phase + " but still has pods " + describe(pods));
            }
            if (holds && status.has("gpus")) {
                for (JsonElement gpu : status.getAsJsonArray("gpus")) {
                    if (gpu.getAsJsonObject().get("fraction").getAsDouble() < 1) {
                        neededReservations.add(
                                node + "/" + gpu.getAsJsonObject().get("index").getAsInt());
                    }
                }
            }
        }
        for (V1Job job : cluster.jobs()) {
            if (!workloadNames.contains(job.getMetadata().getName())
                    && job.getMetadata().getDeletionTimestamp() == null) {
                violations.add("Job " + job.getMetadata().getName() + " has no GpuJob");
            }
        }
        Set<String> reserved = new HashSet<>();
        for (V1Pod pod : cluster.reservationPods()) {
            Map<String, String> labels = pod.getMetadata().getLabels();
            String slot = pod.getMetadata().getAnnotations().get("quotient.io/node") + "/"
                    + labels.get("quotient.io/gpu-index");
            if (!reserved.add(slot)) {
                violations.add("two reservation pods for GPU " + slot);
            }
        }
        if (!reserved.equals(neededReservations)) {
            violations.add("reservation pods on " + reserved + " but placed fractions use " + neededReservations);
        }
        return violations;
    }

    /** The node of each replica: the status's node, then a gang's further replicas' nodes. */
    private static List<String> placedNodes(JsonObject status) {
        List<String> nodes = new ArrayList<>();
        nodes.add(text(status, "node"));
        if (status.has("replicas") && status.get("replicas").isJsonArray()) {
            status.getAsJsonArray("replicas").forEach(r -> nodes.add(text(r.getAsJsonObject(), "node")));
        }
        return nodes;
    }

    /**
     * One pod per replica, started, each on a node of the placement. A single job's pod is Running on its node. A
     * gang's live replicas are on distinct nodes of its placement and its finished ones too, one pod per replica:
     * the replicas are pinned to the set of the gang's nodes with a one-per-node anti-affinity, which the
     * kube-scheduler applies to live pods only, so a replica made again after another one finished may be bound
     * beside the finished one (both on the gang's GPUs; the soak's gang whose worker finished before its master was
     * made again had both on one node, the other node's GPUs held but unused until the gang ends).
     */
    static boolean podsMatchPlacement(List<V1Pod> pods, List<String> nodes) {
        // a pod not bound yet (the kube-scheduler's turn) has no node: it matches no placement
        List<String> podNodes = pods.stream()
                .map(p -> Objects.toString(p.getSpec().getNodeName(), "(unbound)"))
                .sorted()
                .toList();
        if (nodes.size() == 1) {
            return podNodes.equals(nodes)
                    && "Running".equals(pods.get(0).getStatus().getPhase());
        }
        Set<String> started = Set.of("Running", "Succeeded", "Failed");
        Set<String> liveNodes = new HashSet<>();
        boolean liveOnePerNode = pods.stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .allMatch(p -> liveNodes.add(p.getSpec().getNodeName()));
        return liveOnePerNode
                && pods.size() == nodes.size()
                && nodes.containsAll(podNodes)
                && pods.stream().allMatch(p -> started.contains(p.getStatus().getPhase()));
    }

    private static String text(JsonObject object, String field) {
        return object.has(field) && !object.get(field).isJsonNull()
                ? object.get(field).getAsString()
                : null;
    }

    private static String describe(List<V1Pod> pods) {
        return pods.stream()
                .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName() + "("
                        + p.getStatus().getPhase() + ")")
                .toList()
                .toString();
    }
}

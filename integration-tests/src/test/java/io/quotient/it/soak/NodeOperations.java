package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.KubeCalls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The soak's changes to its fleet of fake GPU nodes, drawn from {@link Operations}' seeded stream: nodes added,
 * cordoned, uncordoned and removed (busy ones too unless {@link SoakSettings#removeBusyNodes()} is off: Quotient
 * re-queues the jobs of a node that leaves the cluster), node reports going stale and fresh again. Each one is
 * written to the history.
 */
final class NodeOperations {

    private static final String MODEL = "NVIDIA-H100-80GB-HBM3";

    private final SoakSettings settings;
    private final Random random;
    private final History history;
    private final FakeGpuNodes nodes;
    private final FakeKubelet kubelet;
    private final CoreV1Api core;
    private final DynamicKubernetesApi gpuJobs;
    private final List<String> nodeNames = new ArrayList<>();
    private final Set<String> cordoned = new HashSet<>();
    private final Set<String> silent = new HashSet<>();

    /** @param random the operations' own stream, so that one seed draws the same run */
    NodeOperations(
            SoakSettings settings,
            Random random,
            History history,
            FakeGpuNodes nodes,
            FakeKubelet kubelet,
            ApiClient client) {
        this.settings = settings;
        this.random = random;
        this.history = history;
        this.nodes = nodes;
        this.kubelet = kubelet;
        this.core = new CoreV1Api(client);
        this.gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
    }

    void addInitialNodes() {
        for (int i = 0; i < settings.nodes(); i++) {
            nodeNames.add(newNode());
        }
    }

    /** After the chaos: every node schedulable and reporting again, and at least as many nodes as at the start. */
    void restoreCapacity() {
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

    /** One change of the fleet (0 add, 1 cordon, 2 uncordon, 3 remove, 4 report goes stale, 5 fresh again). */
    String next(int which) throws ApiException {
        List<String> schedulable =
                nodeNames.stream().filter(n -> !cordoned.contains(n)).toList();
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
                List<String> reporting =
                        nodeNames.stream().filter(n -> !silent.contains(n)).toList();
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
        if (!core.listPodForAllNamespaces()
                .fieldSelector("spec.nodeName=" + node)
                .execute()
                .getItems()
                .isEmpty()) {
            return true;
        }
        var listed = gpuJobs.list(); // adopted workloads' records are in the teams' own namespaces
        if (!listed.isSuccess()) {
            return true;
        }
        return listed.getObject().getItems().stream()
                .map(j -> j.getRaw().getAsJsonObject("status"))
                .anyMatch(status -> status != null
                        && node.equals(Observation.text(status, "node"))
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
        return nodes.create(FakeGpuNodeSpec.of(
                        Operations.NODE_PREFIX, settings.gpusPerNode(), Operations.GPU_MEMORY_MIB, MODEL))
                .name();
    }

    private String record(String op, String node) {
        JsonObject entry = history.entry("op");
        entry.addProperty("op", op);
        entry.addProperty("node", node);
        history.write(entry);
        return op;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}

package io.quotient.it.deploy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.util.PatchUtils;
import io.quotient.it.harness.KubeCalls;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Consumer;

/**
 * Edits a node's {@code quotient.io/gpu-report} as its node enforcer would publish it, so that tests can play the
 * enforcer: a report marked not ready, or its {@code usage} object (docs/usage.md, section 2) with the rest of the
 * report (the fake node's GPUs) kept.
 */
final class NodeReports {

    private static final String REPORT = "quotient.io/gpu-report";

    private NodeReports() {}

    /**
     * One GPU of a pod: its cumulative counters since {@code countingSince} (every second measured), and the
     * window's mean utilization.
     */
    record GpuCounters(
            String uuid,
            Instant countingSince,
            double windowSeconds,
            double utilizationPercent,
            double presentSeconds,
            double busyGpuSeconds,
            long memoryMib) {

        JsonObject json() {
            JsonObject counters = new JsonObject();
            counters.addProperty("uuid", uuid);
            counters.addProperty("source", "process");
            counters.addProperty("windowSeconds", windowSeconds);
            counters.addProperty("utilizationPercent", utilizationPercent);
            counters.addProperty("memoryUsedMib", memoryMib);
            counters.addProperty("memoryPeakMib", memoryMib);
            counters.addProperty("countingSince", countingSince.toString());
            counters.addProperty("presentSeconds", presentSeconds);
            counters.addProperty("measuredSeconds", presentSeconds);
            counters.addProperty("busyGpuSeconds", busyGpuSeconds);
            counters.addProperty("memoryMibSeconds", (long) (presentSeconds * memoryMib));
            return counters;
        }
    }

    /** A pod's entry of the usage object. */
    static JsonObject pod(String namespace, String name, String uid, List<GpuCounters> gpus) {
        JsonArray gpuArray = new JsonArray();
        gpus.forEach(g -> gpuArray.add(g.json()));
        JsonObject pod = new JsonObject();
        pod.addProperty("namespace", namespace);
        pod.addProperty("name", name);
        pod.addProperty("uid", uid);
        pod.add("gpus", gpuArray);
        return pod;
    }

    /**
     * Replaces the usage object of the node's report, and sets {@code updatedAt} to now as a fresh publication has
     * it (which also keeps the fake kubelet from refreshing the report from its older cached copy).
     */
    static void writeUsage(
            ApiClient client, String nodeName, Instant windowStart, Instant windowEnd, List<JsonObject> pods) {
        edit(client, nodeName, "adding usage to the report of " + nodeName, report -> {
            JsonArray podArray = new JsonArray();
            pods.forEach(podArray::add);
            JsonObject usage = new JsonObject();
            usage.addProperty("windowStart", windowStart.toString());
            usage.addProperty("windowEnd", windowEnd.toString());
            usage.addProperty("samples", 60);
            usage.add("pods", podArray);
            report.add("usage", usage);
            report.addProperty(
                    "updatedAt", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        });
    }

    /**
     * Reads the node's report, lets {@code change} edit it and writes it back; the resourceVersion makes the merge
     * patch conditional, so a concurrent refresh is retried, not lost.
     */
    static void edit(ApiClient client, String nodeName, String what, Consumer<JsonObject> change) {
        CoreV1Api core = new CoreV1Api(client);
        KubeCalls.retryOnConflict(what, () -> {
            V1Node node = core.readNode(nodeName).execute();
            JsonObject report = JsonParser.parseString(
                            node.getMetadata().getAnnotations().get(REPORT))
                    .getAsJsonObject();
            change.accept(report);
            JsonObject annotations = new JsonObject();
            annotations.addProperty(REPORT, report.toString());
            JsonObject metadata = new JsonObject();
            metadata.add("annotations", annotations);
            metadata.addProperty("resourceVersion", node.getMetadata().getResourceVersion());
            JsonObject patch = new JsonObject();
            patch.add("metadata", metadata);
            return PatchUtils.patch(
                    V1Node.class,
                    () -> core.patchNode(nodeName, new V1Patch(patch.toString()))
                            .buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                    client);
        });
    }
}

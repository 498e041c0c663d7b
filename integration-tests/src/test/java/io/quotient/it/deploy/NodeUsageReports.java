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

/**
 * Writes the {@code usage} object of a node's {@code quotient.io/gpu-report} as the node enforcer publishes it
 * (docs/usage.md, section 2), so that tests can play the enforcer: the rest of the report (the fake node's GPUs) is
 * kept, {@code updatedAt} is set to now as a fresh publication has it.
 */
final class NodeUsageReports {

    private static final String REPORT = "quotient.io/gpu-report";

    private NodeUsageReports() {}

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

    /** Replaces the usage object of the node's report (a conflicting write is read again and retried). */
    static void write(
            ApiClient client, String nodeName, Instant windowStart, Instant windowEnd, List<JsonObject> pods) {
        CoreV1Api core = new CoreV1Api(client);
        KubeCalls.retryOnConflict("adding usage to the report of " + nodeName, () -> {
            V1Node node = core.readNode(nodeName).execute();
            JsonObject report = JsonParser.parseString(
                            node.getMetadata().getAnnotations().get(REPORT))
                    .getAsJsonObject();
            JsonArray podArray = new JsonArray();
            pods.forEach(podArray::add);
            JsonObject usage = new JsonObject();
            usage.addProperty("windowStart", windowStart.toString());
            usage.addProperty("windowEnd", windowEnd.toString());
            usage.addProperty("samples", 60);
            usage.add("pods", podArray);
            report.add("usage", usage);
            // a fresh updatedAt keeps the fake kubelet from refreshing the report from its (older) cached copy
            report.addProperty(
                    "updatedAt", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
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

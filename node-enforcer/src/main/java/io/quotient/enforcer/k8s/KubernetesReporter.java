package io.quotient.enforcer.k8s;

import com.google.gson.Gson;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import io.quotient.enforcer.core.ByteSizes;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.NodeReport;
import io.quotient.enforcer.core.ReservationAssignments;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The enforcer's writes to the API server: the node report annotation, an Event per kill, and the
 * GPU UUID annotation on reservation pods. Bodies are built as objects and serialised, never pasted.
 */
public final class KubernetesReporter {

    static final String COMPONENT = "quotient-node-enforcer";

    private final ApiClient client;
    private final CoreV1Api api;
    private final String nodeName;
    private final Gson gson = new Gson();

    public KubernetesReporter(ApiClient client, String nodeName) {
        this.client = client;
        this.api = new CoreV1Api(client);
        this.nodeName = nodeName;
    }

    public void publishReport(NodeReport report) throws ApiException {
        String patch = gson.toJson(
                Map.of("metadata", Map.of("annotations", Map.of(NodeReport.ANNOTATION, reportJson(report)))));
        PatchUtils.patch(
                V1Node.class,
                () -> api.patchNode(nodeName, new V1Patch(patch)).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                client);
    }

    public void annotateReservation(ReservationAssignments.Assignment assignment) throws ApiException {
        String patch = gson.toJson(Map.of(
                "metadata",
                Map.of("annotations", Map.of(ReservationAssignments.UUID_ANNOTATION, assignment.gpuUuid()))));
        PatchUtils.patch(
                V1Pod.class,
                () -> api.patchNamespacedPod(assignment.pod(), assignment.namespace(), new V1Patch(patch))
                        .buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                client);
    }

    /** A Warning Event on the pod: what was killed, why, how much memory, and with which signal. */
    public void recordKill(KillDecision decision, boolean forced) throws ApiException {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String signal = forced ? "SIGKILL (SIGTERM was ignored for the grace period)" : "SIGTERM";
        CoreV1Event event = new CoreV1Event()
                .metadata(new V1ObjectMeta()
                        .generateName(decision.container().pod() + ".")
                        .namespace(decision.container().namespace()))
                .involvedObject(new V1ObjectReference()
                        .kind("Pod")
                        .apiVersion("v1")
                        .namespace(decision.container().namespace())
                        .name(decision.container().pod())
                        .uid(decision.container().podUid())
                        .fieldPath("spec.containers{" + decision.container().container() + "}"))
                .reason(decision.reason().eventReason())
                .message("GPU process " + decision.target().pid() + " (" + ByteSizes.format(decision.processBytes())
                        + ") sent " + signal + ": " + decision.explanation())
                .type("Warning")
                .source(new V1EventSource().component(COMPONENT).host(nodeName))
                .reportingComponent("quotient.io/node-enforcer")
                .reportingInstance(nodeName)
                .firstTimestamp(now)
                .lastTimestamp(now)
                .count(1);
        api.createNamespacedEvent(decision.container().namespace(), event).execute();
    }

    /** The report as the JSON the deployer reads (see docs/design.md, "Conventions": quotient.io/gpu-report). */
    String reportJson(NodeReport report) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("ready", report.ready());
        json.put("reason", report.reason());
        json.put("updatedAt", DateTimeFormatter.ISO_INSTANT.format(report.updatedAt()));
        json.put("driverVersion", report.driverVersion());
        List<Map<String, Object>> gpus = report.gpus().stream()
                .map(g -> {
                    Map<String, Object> gpu = new LinkedHashMap<>();
                    gpu.put("index", g.index());
                    gpu.put("uuid", g.uuid());
                    gpu.put("model", g.model());
                    gpu.put("memoryTotalMib", g.memoryTotalMib());
                    gpu.put("memoryUsedMib", g.memoryUsedMib());
                    gpu.put("memoryFreeMib", g.memoryFreeMib());
                    return gpu;
                })
                .toList();
        json.put("gpus", gpus);
        json.put("usage", UsageJson.of(report.usage()));
        return gson.toJson(json);
    }
}

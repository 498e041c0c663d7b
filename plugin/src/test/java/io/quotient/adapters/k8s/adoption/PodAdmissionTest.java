package io.quotient.adapters.k8s.adoption;

import static io.quotient.adapters.k8s.adoption.AdmissionAnswers.assertUntouched;
import static io.quotient.adapters.k8s.adoption.AdmissionAnswers.message;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.ServiceHarness;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.LeadershipGate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The webhook's pod rule: a GPU pod of a team is admitted pinned to its job's placement (a share with the GPU env of
 * its reserved GPU and no nvidia.com/gpu), refused with the reason while its job waits, never admitted unpinned;
 * pods without GPUs, of other controllers, of other namespaces pass untouched.
 */
class PodAdmissionTest {

    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            (input, teams) -> new JobSpecValidator().validateRequest(input),
            List.of(new NodeSpec("gpu-node-1", 64_000, 512_000, 2, "A100", 81_920)),
            Map.of("team-a", Team.of("team-a", 1)),
            gateway -> gateway,
            LeadershipGate.ALWAYS,
            store -> store);
    private final WorkloadAdmission admission = new WorkloadAdmission(
            new TenantScope("quotient-system", () -> TeamNamespaces.of(Map.of("team-a", List.of("ml-a")), null)),
            h.store::find,
            h.pods);

    private static String notebookPod(String name, String annotations, String limits) {
        return """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "%s", "namespace": "ml-a",
                  "labels": {"notebook-name": "nb", "statefulset": "nb"}, "annotations": %s,
                  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "nb", "uid": "s-1",
                    "controller": true}]},
                 "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                     {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
                   "containers": [{"name": "nb", "image": "jupyter", "env": [{"name": "A", "value": "1"}],
                     "resources": {"limits": %s}}]}}""".formatted(name, annotations, limits);
    }

    @Test
    void aHalfGpuNotebookPodIsPinnedAndBoundToItsReservedGpu() {
        JsonObject response = mutate("ml-a", notebookPod("nb-0", "{\"gpu-fraction\": \"0.5\"}", "{\"cpu\": \"1\"}"));

        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        Map<String, JsonElement> ops = operations(response);
        assertThat(ops.keySet())
                .containsExactlyInAnyOrder(
                        "/metadata/labels", "/metadata/annotations", "/spec/affinity", "/spec/containers");
        assertThat(ops.get("/metadata/labels")).isEqualTo(JsonParser.parseString("""
                {"notebook-name": "nb", "statefulset": "nb", "quotient.io/team": "team-a", "quotient.io/job": "nb-0",
                 "app.kubernetes.io/managed-by": "quotient"}"""));
        assertThat(ops.get("/metadata/annotations")
                        .getAsJsonObject()
                        .get("gpu-fraction-limit")
                        .getAsString())
                .isEqualTo("0.5");
        assertThat(ops.get("/spec/affinity"))
                .as("the author's term keeps its expression, ANDed with the node")
                .isEqualTo(JsonParser.parseString("""
                {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                  {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]},
                   {"key": "kubernetes.io/hostname", "operator": "In", "values": ["gpu-node-1"]}]}]}}}"""));
        String uuid = h.cluster.reservations().values().iterator().next();
        JsonObject container =
                ops.get("/spec/containers").getAsJsonArray().get(0).getAsJsonObject();
        Map<String, String> env = new HashMap<>();
        container
                .getAsJsonArray("env")
                .forEach(e -> env.put(
                        e.getAsJsonObject().get("name").getAsString(),
                        e.getAsJsonObject().get("value").getAsString()));
        assertThat(env)
                .containsEntry("A", "1")
                .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid)
                .containsEntry("GPU_MEMORY_REQUEST", Long.toString(81_920L * 1024 * 1024 / 2))
                .containsEntry("GPU_MEMORY_LIMIT", Long.toString(81_920L * 1024 * 1024 / 2));
        assertThat(container
                        .getAsJsonObject("resources")
                        .getAsJsonObject("limits")
                        .has("nvidia.com/gpu"))
                .isFalse();
        assertThat(h.store.find(new JobId("team-a", "nb-0")).orElseThrow().phase())
                .isEqualTo(JobPhase.PLACED);
        assertThat(h.store
                        .find(new JobId("team-a", "nb-0"))
                        .orElseThrow()
                        .spec()
                        .kind())
                .as("a Notebook's pod is a notebook to the team's idle policy")
                .isEqualTo(JobKind.NOTEBOOK);
    }

    @Test
    void aWholeGpuPodKeepsItsGpuLimitAndIsPinned() {
        JsonObject response = mutate("ml-a", notebookPod("gpu-0", "{}", "{\"nvidia.com/gpu\": \"1\"}"));

        Map<String, JsonElement> ops = operations(response);
        assertThat(ops.keySet()).containsExactlyInAnyOrder("/metadata/labels", "/spec/affinity");
    }

    @Test
    void aNotebookPodOverItsTeamsGuaranteeIsRefusedWithTheReasonAndItsRecordWaits() {
        mutate("ml-a", notebookPod("first-0", "{}", "{\"nvidia.com/gpu\": \"1\"}"));

        JsonObject response = mutate("ml-a", notebookPod("nb-0", "{\"gpu-fraction\": \"0.5\"}", "{}"));

        var record = h.store.find(new JobId("team-a", "nb-0")).orElseThrow();
        assertThat(record.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(message(response))
                .isEqualTo("notebook pod nb-0 of team team-a waits: "
                        + record.status().reason() + "; the StatefulSet controller retries");
    }

    @Test
    void aBarePodWithoutANameOrWithBadAnnotationsIsRefusedWithTheField() {
        String unnamed = notebookPod("x", "{}", "{\"nvidia.com/gpu\": \"1\"}")
                .replace("\"name\": \"x\"", "\"generateName\": \"x-\"");
        assertThat(message(mutate("ml-a", unnamed))).startsWith("metadata.name: a pod that asks for GPUs");
        assertThat(message(mutate(
                        "ml-a", notebookPod("bad-0", "{\"gpu-fraction\": \"0.5\", \"gpu-memory\": \"100\"}", "{}"))))
                .isEqualTo("metadata.annotations[gpu-memory]: cannot be combined with gpu-fraction; ask for a"
                        + " fraction of a GPU or for MiB of it, not both");
        assertThat(h.store.listAll()).isEmpty();
    }

    @Test
    void podsWithoutGpusOfOtherControllersOrOtherNamespacesPassUntouched() {
        assertUntouched(mutate("ml-a", notebookPod("cpu-0", "{}", "{\"cpu\": \"1\"}")));
        assertUntouched(mutate(
                "ml-a",
                notebookPod("job-x", "{}", "{\"nvidia.com/gpu\": \"1\"}").replace("\"StatefulSet\"", "\"Job\"")));
        assertUntouched(mutate("elsewhere", notebookPod("nb-0", "{}", "{\"nvidia.com/gpu\": \"1\"}")));
        assertThat(h.store.listAll()).isEmpty();
    }

    private JsonObject mutate(String namespace, String pod) {
        String request = """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "u-1", "operation": "CREATE", "namespace": "%s",
                  "kind": {"group": "", "version": "v1", "kind": "Pod"}, "object": %s}}
                """.formatted(namespace, pod);
        return JsonParser.parseString(admission.mutate(request))
                .getAsJsonObject()
                .getAsJsonObject("response");
    }

    private static Map<String, JsonElement> operations(JsonObject response) {
        Map<String, JsonElement> ops = new HashMap<>();
        AdmissionAnswers.patch(response).forEach(op -> {
            assertThat(op.getAsJsonObject().get("op").getAsString()).isEqualTo("add");
            ops.put(
                    op.getAsJsonObject().get("path").getAsString(),
                    op.getAsJsonObject().get("value"));
        });
        return ops;
    }
}

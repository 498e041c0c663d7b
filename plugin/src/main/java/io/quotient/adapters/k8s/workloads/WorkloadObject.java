package io.quotient.adapters.k8s.workloads;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.deploy.port.WorkloadPhase;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The controlling object of a job's pods as the cluster shows it: a batch Job, a PyTorchJob or a TrainJob. Its uid
 * tells the pods of this incarnation from those of an earlier object of the same name (a gang re-placed after a node
 * removal is deleted and created again); its conditions say when the controller judged it finished; its replica count
 * says how many pods must have finished before the pods alone may say so.
 *
 * @param kind              the object's kind, as pods name it in their owner references
 * @param uid               the object's uid
 * @param terminating       whether it is being deleted
 * @param finishedPodsNeeded how many of its pods must have finished before its pods alone decide its outcome: a Job's
 *                          completions, a PyTorchJob's replicas, a TrainJob's nodes
 * @param outcome           SUCCEEDED or FAILED once its controller wrote that condition; empty before
 * @param retriesFailedPods whether a failed pod may be replaced (a Job within its backoff limit), so that only the
 *                          controller's condition says it failed; a training job's failed replica fails it
 */
public record WorkloadObject(
        String kind,
        String uid,
        boolean terminating,
        int finishedPodsNeeded,
        Optional<WorkloadPhase> outcome,
        boolean retriesFailedPods) {

    /** Condition types the controllers write when a job is done: batch/v1 and Trainer say Complete, the v1 operator Succeeded. */
    private static final Map<String, WorkloadPhase> FINAL_CONDITIONS = Map.of(
            "Complete", WorkloadPhase.SUCCEEDED, "Succeeded", WorkloadPhase.SUCCEEDED, "Failed", WorkloadPhase.FAILED);

    public static WorkloadObject of(V1Job job) {
        V1ObjectMeta metadata = job.getMetadata();
        int completions = job.getSpec() == null || job.getSpec().getCompletions() == null
                ? 1
                : job.getSpec().getCompletions();
        Optional<WorkloadPhase> outcome = Optional.empty();
        List<V1JobCondition> conditions =
                job.getStatus() == null ? null : job.getStatus().getConditions();
        if (conditions != null) {
            for (V1JobCondition condition : conditions) {
                outcome = outcome.or(() -> finalCondition(condition.getType(), condition.getStatus()));
            }
        }
        return new WorkloadObject(
                "Job", metadata.getUid(), metadata.getDeletionTimestamp() != null, completions, outcome, true);
    }

    /** A PyTorchJob (its replica specs' replicas summed) or a TrainJob ({@code spec.trainer.numNodes}, 1 when unset). */
    public static WorkloadObject ofTrainingJob(DynamicKubernetesObject object) {
        JsonObject raw = object.getRaw();
        String kind = object.getKind() != null ? object.getKind() : string(raw, "kind");
        Optional<WorkloadPhase> outcome = Optional.empty();
        JsonElement conditions = at(raw, "status", "conditions");
        if (conditions != null && conditions.isJsonArray()) {
            for (JsonElement condition : (JsonArray) conditions) {
                if (condition.isJsonObject()) {
                    outcome = outcome.or(() -> finalCondition(
                            string(condition.getAsJsonObject(), "type"),
                            string(condition.getAsJsonObject(), "status")));
                }
            }
        }
        return new WorkloadObject(
                kind,
                object.getMetadata().getUid(),
                object.getMetadata().getDeletionTimestamp() != null,
                replicas(raw),
                outcome,
                false);
    }

    private static int replicas(JsonObject raw) {
        JsonElement specs = at(raw, "spec", "pytorchReplicaSpecs");
        if (specs != null && specs.isJsonObject()) {
            int total = 0;
            for (Map.Entry<String, JsonElement> spec : specs.getAsJsonObject().entrySet()) {
                JsonElement replicas = spec.getValue().isJsonObject()
                        ? spec.getValue().getAsJsonObject().get("replicas")
                        : null;
                total += replicas == null || !replicas.isJsonPrimitive() ? 1 : replicas.getAsInt();
            }
            return Math.max(1, total);
        }
        JsonElement nodes = at(raw, "spec", "trainer", "numNodes");
        return nodes == null || !nodes.isJsonPrimitive() ? 1 : Math.max(1, nodes.getAsInt());
    }

    private static Optional<WorkloadPhase> finalCondition(String type, String status) {
        return "True".equals(status) ? Optional.ofNullable(FINAL_CONDITIONS.get(type)) : Optional.empty();
    }

    private static JsonElement at(JsonObject object, String... path) {
        JsonElement current = object;
        for (String step : path) {
            if (current == null || !current.isJsonObject()) {
                return null;
            }
            current = current.getAsJsonObject().get(step);
        }
        return current;
    }

    private static String string(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value == null || !value.isJsonPrimitive() ? null : value.getAsString();
    }
}

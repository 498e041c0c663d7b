package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the adoption tests read of a workload the webhooks adopted: its label, its suspension, its pods and the nodes
 * Quotient chose for it.
 */
final class AdoptedWorkloads {

    static final String ADOPTED = "quotient.io/adopted";

    private AdoptedWorkloads() {}

    static boolean suspended(DynamicKubernetesApi pytorchJobs, String namespace) {
        JsonObject job = pytorchJobs.get(namespace, "llm").getObject().getRaw();
        JsonObject runPolicy = job.getAsJsonObject("spec").getAsJsonObject("runPolicy");
        return runPolicy != null
                && runPolicy.has("suspend")
                && runPolicy.get("suspend").getAsBoolean();
    }

    static Set<String> chosenNodes(QuotientApi.Answer placed) {
        Set<String> chosen = new HashSet<>();
        chosen.add(placed.text("node"));
        var replicas = placed.object().getAsJsonArray("replicas");
        if (replicas != null) {
            replicas.forEach(r -> chosen.add(r.getAsJsonObject().get("node").getAsString()));
        }
        return chosen;
    }

    static List<V1Pod> pods(ApiClient client, String namespace, String job) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace)
                .labelSelector("quotient.io/job=" + job)
                .execute()
                .getItems();
    }

    /** Creates the workload, first deleting one the webhook did not adopt yet (its configuration was still loading). */
    static JsonObject recreate(DynamicKubernetesApi api, JsonObject workload) {
        String namespace = workload.getAsJsonObject("metadata").get("namespace").getAsString();
        String name = workload.getAsJsonObject("metadata").get("name").getAsString();
        KubernetesApiResponse<DynamicKubernetesObject> existing = api.get(namespace, name);
        if (existing.isSuccess()) {
            if (adopted(existing.getObject().getRaw())) {
                return existing.getObject().getRaw();
            }
            api.delete(namespace, name);
            return new JsonObject();
        }
        return created(api.create(new DynamicKubernetesObject(workload)));
    }

    static JsonObject created(KubernetesApiResponse<DynamicKubernetesObject> response) {
        assertThat(response.isSuccess())
                .as(
                        "HTTP %s %s",
                        response.getHttpStatusCode(),
                        response.getStatus() == null ? "" : response.getStatus().getMessage())
                .isTrue();
        return response.getObject().getRaw();
    }

    static boolean adopted(JsonObject object) {
        JsonObject metadata = object.getAsJsonObject("metadata");
        JsonObject labels = metadata == null ? null : metadata.getAsJsonObject("labels");
        JsonElement value = labels == null ? null : labels.get(ADOPTED);
        return value != null && "true".equals(value.getAsString());
    }
}

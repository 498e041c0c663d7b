package io.quotient.it.soak;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.soak.KubeflowLook.NotebookPod;
import io.quotient.it.soak.KubeflowLook.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the Kubeflow side of a look from the API server: the PyTorchJobs and TrainJobs of the teams' own namespaces
 * (one cluster-wide list per kind) and, from the pods already listed, the notebook-like GPU pods there.
 */
final class KubeflowReader {

    private final DynamicKubernetesApi pytorchJobs;
    private final DynamicKubernetesApi trainJobs;
    /** Each team's own namespace → the team. */
    private final Map<String, String> teamOfNamespace;

    KubeflowReader(ApiClient client, Map<String, String> teamOfNamespace) {
        this.pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", client);
        this.trainJobs = new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client);
        this.teamOfNamespace = Map.copyOf(teamOfNamespace);
    }

    boolean teamNamespace(String namespace) {
        return teamOfNamespace.containsKey(namespace);
    }

    List<Workload> workloads() throws ApiException {
        List<Workload> workloads = new ArrayList<>();
        if (teamOfNamespace.isEmpty()) {
            return workloads;
        }
        read(pytorchJobs, "PyTorchJob", workloads);
        read(trainJobs, "TrainJob", workloads);
        return workloads;
    }

    /** A bare pod of a team namespace (no owner: not a training operator's), or null for any other pod. */
    NotebookPod notebook(V1Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        if (!teamNamespace(namespace)
                || (pod.getMetadata().getOwnerReferences() != null
                        && !pod.getMetadata().getOwnerReferences().isEmpty())) {
            return null;
        }
        V1Affinity affinity = pod.getSpec().getAffinity();
        boolean pinned = affinity != null
                && affinity.getNodeAffinity() != null
                && affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null;
        return new NotebookPod(
                teamOfNamespace.get(namespace) + "/" + pod.getMetadata().getName(),
                pod.getSpec().getNodeName(),
                pinned);
    }

    private void read(DynamicKubernetesApi api, String kind, List<Workload> into) throws ApiException {
        var listed = api.list();
        if (!listed.isSuccess()) {
            throw new ApiException(listed.getHttpStatusCode(), "listing " + kind + "s failed: " + listed.getStatus());
        }
        for (DynamicKubernetesObject object : listed.getObject().getItems()) {
            JsonObject raw = object.getRaw();
            JsonObject metadata = raw.getAsJsonObject("metadata");
            String namespace = Observation.text(metadata, "namespace");
            if (!teamNamespace(namespace) || metadata.has("deletionTimestamp")) {
                continue;
            }
            into.add(new Workload(
                    teamOfNamespace.get(namespace) + "/" + Observation.text(metadata, "name"),
                    kind,
                    suspended(raw.getAsJsonObject("spec"), kind)));
        }
    }

    private static boolean suspended(JsonObject spec, String kind) {
        JsonObject holder = "PyTorchJob".equals(kind) && spec != null && spec.has("runPolicy")
                ? spec.getAsJsonObject("runPolicy")
                : spec;
        JsonElement suspend = holder == null ? null : holder.get("suspend");
        return suspend != null && !suspend.isJsonNull() && suspend.getAsBoolean();
    }
}

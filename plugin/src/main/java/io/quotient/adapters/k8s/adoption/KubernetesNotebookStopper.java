package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.NotebookStopper;
import io.quotient.deploy.port.WorkloadRef;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a Kubeflow Notebook (kubeflow.org/v1) through its {@code kubeflow-resource-stopped} annotation, a JSON merge
 * patch of its metadata only: Kubeflow's notebook controller then scales its StatefulSet to zero, and the Kubeflow UI
 * shows it stopped, to be started again. The Notebook is the one whose pod the job governs: named by the pod's
 * {@code notebook-name} label, or, when the pod is gone already, by its StatefulSet's name (the pod's name without its
 * ordinal: the controller names the StatefulSet after the Notebook).
 */
public final class KubernetesNotebookStopper implements NotebookStopper {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesNotebookStopper.class);
    private static final int NOT_FOUND = 404;

    private final DynamicKubernetesApi notebooks;
    private final DynamicKubernetesApi pods;

    public KubernetesNotebookStopper(ApiClient client) {
        this.notebooks = new DynamicKubernetesApi("kubeflow.org", "v1", "notebooks", client);
        this.pods = new DynamicKubernetesApi("", "v1", "pods", client);
    }

    @Override
    public boolean stop(JobRecord record, Instant at) {
        WorkloadRef workload = record.submission().workload();
        if (workload == null || !workload.isPod()) {
            return false;
        }
        String namespace = record.submission().pod().namespace();
        Optional<String> notebook = notebookOf(namespace, workload.name());
        if (notebook.isEmpty()) {
            return false;
        }
        KubernetesApiResponse<DynamicKubernetesObject> patched = notebooks.patch(
                namespace,
                notebook.get(),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch(patch(at).toString()));
        if (patched.isSuccess()) {
            LOG.info(
                    "job {} of team {}: Notebook {}/{} stopped (annotation {})",
                    record.id().name(),
                    record.id().team(),
                    namespace,
                    LogValues.escape(notebook.get()),
                    STOPPED_ANNOTATION);
            return true;
        }
        if (patched.getHttpStatusCode() != NOT_FOUND) {
            throw new IllegalStateException("stopping Notebook " + namespace + "/" + notebook.get() + " failed: HTTP "
                    + patched.getHttpStatusCode() + " " + patched.getStatus());
        }
        return false;
    }

    /** The merge patch setting the annotation to {@code at} (RFC 3339, whole seconds, as Kubeflow writes it). */
    static JsonObject patch(Instant at) {
        JsonObject annotations = new JsonObject();
        annotations.addProperty(
                STOPPED_ANNOTATION, at.truncatedTo(ChronoUnit.SECONDS).toString());
        JsonObject metadata = new JsonObject();
        metadata.add("annotations", annotations);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        return patch;
    }

    private Optional<String> notebookOf(String namespace, String podName) {
        KubernetesApiResponse<DynamicKubernetesObject> pod = pods.get(namespace, podName);
        if (pod.isSuccess() && pod.getObject() != null) {
            JsonObject metadata = JsonTree.object(pod.getObject().getRaw(), "metadata");
            String label = JsonTree.text(JsonTree.object(metadata, "labels"), PodAdmission.NOTEBOOK_LABEL);
            if (label != null) {
                return Optional.of(label);
            }
        }
        return StatefulSetRetry.statefulSetOf(podName);
    }
}

package io.quotient.it.kubeflow;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays Kubeflow's notebook controller in the test plane, as the fake kubelet plays the kubelet: each Notebook gets a
 * StatefulSet of its name (owned by it, so the garbage collector removes it with the Notebook) whose pod template is
 * the Notebook's {@code spec.template.spec}, labelled {@code statefulset} and {@code notebook-name}, with the
 * Notebook's labels and its annotations copied as the real controller copies them (those naming kubectl or notebook
 * left out) — which is how a Run:ai user's {@code gpu-fraction} reaches the pod. One replica, none while the Notebook
 * carries {@code kubeflow-resource-stopped} (stopped from the UI, or culled). The real StatefulSet controller then
 * creates pod {@code <name>-0}.
 */
public final class FakeNotebookController implements AutoCloseable {

    public static final String STOPPED_ANNOTATION = "kubeflow-resource-stopped";
    private static final System.Logger LOG = System.getLogger(FakeNotebookController.class.getName());
    private static final Duration TICK = Duration.ofMillis(300);

    private final DynamicKubernetesApi notebooks;
    private final DynamicKubernetesApi statefulSets;
    private final ScheduledExecutorService loop;
    private volatile String lastFailure;

    private FakeNotebookController(ApiClient client) {
        notebooks = new DynamicKubernetesApi("kubeflow.org", "v1", "notebooks", client);
        statefulSets = new DynamicKubernetesApi("apps", "v1", "statefulsets", client);
        loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fake-notebook-controller");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Installs the Kubeflow CRDs if needed and starts reconciling the Notebooks of {@code namespace}. */
    public static FakeNotebookController start(ApiClient client, String namespace) {
        KubeflowCrds.install(client);
        FakeNotebookController controller = new FakeNotebookController(client);
        controller.loop.scheduleWithFixedDelay(
                () -> controller.reconcileSafely(namespace), 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return controller;
    }

    /** The last error a pass met, or null. */
    public String lastFailure() {
        return lastFailure;
    }

    private void reconcileSafely(String namespace) {
        try {
            KubernetesApiResponse<DynamicKubernetesListObject> listed = notebooks.list(namespace, new ListOptions());
            if (!listed.isSuccess()) {
                throw new IllegalStateException("listing notebooks failed: HTTP " + listed.getHttpStatusCode());
            }
            for (DynamicKubernetesObject notebook : listed.getObject().getItems()) {
                reconcile(notebook.getRaw());
            }
        } catch (RuntimeException e) {
            lastFailure = e.getMessage();
            LOG.log(Level.WARNING, "fake notebook controller pass failed: " + e.getMessage());
        }
    }

    private void reconcile(JsonObject notebook) {
        JsonObject metadata = notebook.getAsJsonObject("metadata");
        if (metadata.has("deletionTimestamp")) {
            return;
        }
        String namespace = metadata.get("namespace").getAsString();
        String name = metadata.get("name").getAsString();
        int replicas = annotations(metadata).has(STOPPED_ANNOTATION) ? 0 : 1;
        KubernetesApiResponse<DynamicKubernetesObject> existing = statefulSets.get(namespace, name);
        if (existing.isSuccess()) {
            JsonElement current =
                    existing.getObject().getRaw().getAsJsonObject("spec").get("replicas");
            if (current == null || current.getAsInt() != replicas) {
                JsonObject spec = new JsonObject();
                spec.addProperty("replicas", replicas);
                JsonObject patch = new JsonObject();
                patch.add("spec", spec);
                check(
                        statefulSets.patch(
                                namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch(patch.toString())),
                        "scaling StatefulSet " + name + " to " + replicas);
            }
            return;
        }
        check(
                statefulSets.create(new DynamicKubernetesObject(statefulSet(notebook, replicas))),
                "creating the StatefulSet of Notebook " + name);
    }

    /** The StatefulSet the notebook controller makes of a Notebook (built as an object). */
    static JsonObject statefulSet(JsonObject notebook, int replicas) {
        JsonObject source = notebook.getAsJsonObject("metadata");
        String name = source.get("name").getAsString();
        JsonObject podLabels = new JsonObject();
        if (source.has("labels")) {
            source.getAsJsonObject("labels").entrySet().forEach(e -> podLabels.add(e.getKey(), e.getValue()));
        }
        podLabels.addProperty("statefulset", name);
        podLabels.addProperty("notebook-name", name);
        JsonObject podAnnotations = new JsonObject();
        annotations(source).entrySet().stream()
                .filter(e -> !e.getKey().contains("kubectl") && !e.getKey().contains("notebook"))
                .forEach(e -> podAnnotations.add(e.getKey(), e.getValue()));
        JsonObject podMetadata = new JsonObject();
        podMetadata.add("labels", podLabels);
        podMetadata.add("annotations", podAnnotations);
        JsonObject template = new JsonObject();
        template.add("metadata", podMetadata);
        template.add(
                "spec",
                notebook.getAsJsonObject("spec")
                        .getAsJsonObject("template")
                        .getAsJsonObject("spec")
                        .deepCopy());
        JsonObject matchLabels = new JsonObject();
        matchLabels.addProperty("statefulset", name);
        JsonObject selector = new JsonObject();
        selector.add("matchLabels", matchLabels);
        JsonObject spec = new JsonObject();
        spec.addProperty("replicas", replicas);
        spec.addProperty("serviceName", name);
        spec.add("selector", selector);
        spec.add("template", template);
        JsonObject owner = new JsonObject();
        owner.addProperty("apiVersion", "kubeflow.org/v1");
        owner.addProperty("kind", "Notebook");
        owner.addProperty("name", name);
        owner.addProperty("uid", source.get("uid").getAsString());
        owner.addProperty("controller", true);
        owner.addProperty("blockOwnerDeletion", true);
        JsonArray owners = new JsonArray();
        owners.add(owner);
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", name);
        metadata.addProperty("namespace", source.get("namespace").getAsString());
        metadata.add("ownerReferences", owners);
        JsonObject statefulSet = new JsonObject();
        statefulSet.addProperty("apiVersion", "apps/v1");
        statefulSet.addProperty("kind", "StatefulSet");
        statefulSet.add("metadata", metadata);
        statefulSet.add("spec", spec);
        return statefulSet;
    }

    private static JsonObject annotations(JsonObject metadata) {
        return metadata.has("annotations") ? metadata.getAsJsonObject("annotations") : new JsonObject();
    }

    private static void check(KubernetesApiResponse<DynamicKubernetesObject> response, String what) {
        if (!response.isSuccess() && response.getHttpStatusCode() != 409) {
            throw new IllegalStateException(what + " failed: HTTP " + response.getHttpStatusCode() + " "
                    + (response.getStatus() == null ? "" : response.getStatus().getMessage()));
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}

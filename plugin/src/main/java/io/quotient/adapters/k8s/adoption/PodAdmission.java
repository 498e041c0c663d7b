package io.quotient.adapters.k8s.adoption;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import io.quotient.adapters.k8s.AdmissionReviews;
import io.quotient.adapters.template.AdmittedPod;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.request.ForeignDemand;
import io.quotient.core.request.ForeignGpuRequests;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.PodAdmissions;
import io.quotient.deploy.PodVerdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission of pods that ask for GPUs in a team's namespace (a Notebook's StatefulSet pod, a bare GPU pod): a pod
 * cannot be suspended, so it is admitted only pinned to its job's placement — labelled, with a required node affinity
 * to the chosen node and, for a share, the GPU env of its reserved GPU (JSONPatch) — and refused with its job's reason
 * while the job waits; its controller retries the create, and the retry that finds the job placed is admitted. Never
 * admitted unpinned. Pods of a controller other than a StatefulSet (a Job's, a JobSet's, a training operator's) pass
 * untouched: their workload is governed itself, or not at all; so do pods without GPUs and Quotient's own.
 */
final class PodAdmission {

    static final String PREEMPTIBLE_ANNOTATION = "quotient.io/preemptible";
    private static final Logger LOG = LoggerFactory.getLogger(PodAdmission.class);
    private static final Gson GSON = new GsonBuilder()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .create();
    private static final String STATEFUL_SET = "StatefulSet";
    /** The label Kubeflow's notebook controller puts on a Notebook's pods. */
    static final String NOTEBOOK_LABEL = "notebook-name";
    /** Where the JSONPatch replaces what {@link AdmittedPod} changed. */
    private static final List<List<String>> CHANGED = List.of(
            List.of("metadata", "labels"),
            List.of("metadata", "annotations"),
            List.of("spec", "affinity"),
            List.of("spec", "containers"),
            List.of("spec", "initContainers"));

    private final PodAdmissions admissions;

    PodAdmission(PodAdmissions admissions) {
        this.admissions = admissions;
    }

    /** The answer to creating {@code pod} in {@code namespace}, a namespace of {@code team}. */
    String review(JsonObject request, String team, String namespace, JsonObject pod) {
        JsonObject metadata = JsonTree.object(pod, "metadata");
        if (ownedByAnotherController(metadata)) {
            return AdmissionReviews.allowed(request);
        }
        Optional<GpuRequest> gpu;
        try {
            gpu = ForeignGpuRequests.parse(ForeignWorkloadKind.podTemplateAsk("", pod));
        } catch (RequestException e) {
            LOG.info(
                    "pod {}/{} of team {} refused at admission: {}",
                    namespace,
                    JsonTree.text(metadata, "name"),
                    team,
                    LogValues.escape(e.getMessage()));
            return AdmissionReviews.refused(request, e.getMessage());
        }
        if (gpu.isEmpty()) {
            return AdmissionReviews.allowed(request);
        }
        String name = JsonTree.text(metadata, "name");
        if (name == null || name.isBlank()) {
            return AdmissionReviews.refused(
                    request,
                    "metadata.name: a pod that asks for GPUs in team " + team + "'s"
                            + " namespace needs a name (it names its job); generateName alone is not enough. Run it as a"
                            + " StatefulSet (a Notebook), a Job or a PyTorchJob, or give the pod a name");
        }
        boolean notebook = labelled(metadata, NOTEBOOK_LABEL);
        String what = (notebook ? "notebook pod " : "pod ") + name + " of team " + team;
        boolean preemptible =
                "true".equals(JsonTree.text(JsonTree.object(metadata, "annotations"), PREEMPTIBLE_ANNOTATION));
        JobRequestInput ask = new ForeignDemand(gpu.get(), 1)
                .request(team, name)
                .withPreemptible(preemptible)
                // a Notebook's pod is a notebook to the team's idle policy; a bare GPU pod is a training job
                .withKind(notebook ? JobKind.NOTEBOOK.wireName() : null);
        boolean dryRun = "true".equals(AdmissionReviews.text(request, "dryRun"));
        PodVerdict verdict = admissions.admit(namespace, ask, dryRun);
        if (verdict instanceof PodVerdict.Admit admit) {
            return admitted(request, pod, gpu.get(), admit, what);
        }
        if (verdict instanceof PodVerdict.Wait wait) {
            String retry = controlledBy(metadata, STATEFUL_SET)
                    ? "the StatefulSet controller retries"
                    : "create the pod again once its GpuJob " + name + " is Placed (kubectl get gpujob " + name + ")";
            LOG.info("{} waits at admission: {}", what, wait.reason());
            return AdmissionReviews.refused(request, what + " waits: " + wait.reason() + "; " + retry);
        }
        String reason = ((PodVerdict.Refuse) verdict).reason();
        LOG.info("{} refused at admission: {}", what, reason);
        return AdmissionReviews.refused(request, what + " is refused: " + reason);
    }

    private static String admitted(
            JsonObject request, JsonObject pod, GpuRequest gpu, PodVerdict.Admit admit, String what) {
        Map<String, Object> before = plain(pod);
        Map<String, Object> after = plain(pod);
        String node = admit.record().status().node();
        try {
            AdmittedPod.place(
                    after,
                    gpu,
                    admit.gpus(),
                    admit.gpuMemoryMib(),
                    node,
                    AdoptedWorkloadGateway.labels(admit.record().id()));
        } catch (IllegalArgumentException e) {
            LOG.warn("{} cannot be placed on node {}: {}", what, node, e.getMessage());
            return AdmissionReviews.refused(request, what + " is refused: " + e.getMessage());
        }
        LOG.info(
                "{} admitted on node {} (job {} of team {}, GPUs {})",
                what,
                node,
                admit.record().id().name(),
                admit.record().id().team(),
                admit.gpus());
        return AdmissionReviews.patched(request, patch(before, after));
    }

    /** {@code add} operations (which replace a member that exists) for each changed part of the pod. */
    static JsonArray patch(Map<String, Object> before, Map<String, Object> after) {
        JsonArray operations = new JsonArray();
        for (List<String> path : CHANGED) {
            Object old = at(before, path);
            Object changed = at(after, path);
            if (changed != null && !Objects.equals(old, changed)) {
                JsonObject operation = new JsonObject();
                operation.addProperty("op", "add");
                operation.addProperty("path", "/" + String.join("/", path));
                operation.add("value", GSON.toJsonTree(changed));
                operations.add(operation);
            }
        }
        return operations;
    }

    private static Object at(Map<String, Object> root, List<String> path) {
        Object current = root;
        for (String step : path) {
            current = current instanceof Map<?, ?> map ? map.get(step) : null;
        }
        return current;
    }

    private static Map<String, Object> plain(JsonObject pod) {
        return GSON.fromJson(pod, new TypeToken<LinkedHashMap<String, Object>>() {}.getType());
    }

    private static boolean labelled(JsonObject metadata, String label) {
        return JsonTree.text(JsonTree.object(metadata, "labels"), label) != null;
    }

    /** Owned by a controller other than a StatefulSet: the pod's workload is governed through its owner, or not. */
    private static boolean ownedByAnotherController(JsonObject metadata) {
        return controller(metadata).filter(kind -> !STATEFUL_SET.equals(kind)).isPresent();
    }

    private static boolean controlledBy(JsonObject metadata, String kind) {
        return controller(metadata).filter(kind::equals).isPresent();
    }

    /** The kind of the object's controlling owner, if any. */
    static Optional<String> controller(JsonObject metadata) {
        JsonElement owners = metadata == null ? null : metadata.get("ownerReferences");
        if (owners == null || !owners.isJsonArray()) {
            return Optional.empty();
        }
        for (JsonElement owner : owners.getAsJsonArray()) {
            JsonObject reference = owner.isJsonObject() ? owner.getAsJsonObject() : null;
            if (reference != null && "true".equals(JsonTree.text(reference, "controller"))) {
                return Optional.ofNullable(JsonTree.text(reference, "kind"));
            }
        }
        return Optional.empty();
    }
}

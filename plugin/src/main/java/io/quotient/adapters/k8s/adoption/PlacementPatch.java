package io.quotient.adapters.k8s.adoption;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import io.quotient.adapters.template.DeferredGpuBinding;
import io.quotient.adapters.template.NodePinning;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.adapters.template.TrainJobRuntimePatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON merge patches that place an adopted workload and take the placement back, computed from the workload as it
 * is now: each pod template gets the job's labels (so its pods are seen as the job's) and the author's affinity plus
 * a required node affinity to the chosen nodes (and, for a gang, one pod per node), as the {@code pytorchjob} template
 * pins rendered pods; the suspend switch goes off. Taking it back suspends the workload and restores the author's
 * affinity. Only pod template labels and affinity change (both mutable on a suspended batch Job from 1.23, always on
 * PyTorchJobs); a TrainJob gets the same as Quotient's own {@code spec.runtimePatches} entry
 * ({@link TrainJobRuntimePatch}).
 */
final class PlacementPatch {

    private static final Gson GSON = new GsonBuilder()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .create();

    private PlacementPatch() {}

    /**
     * Pinned to {@code nodes} (one replica per node when {@code gang}), labelled, unsuspended; a share's pod templates
     * also get {@code shareAnnotations}, the values of the env their GPU container reads ({@link ShareEnvPatch}).
     */
    static JsonObject place(
            ForeignWorkloadKind kind,
            JsonObject workload,
            Map<String, String> jobLabels,
            List<String> nodes,
            boolean gang,
            Map<String, String> shareAnnotations) {
        JsonObject patch = suspendSwitch(kind, false);
        if (kind == ForeignWorkloadKind.TRAIN_JOB) {
            // the pods come from the runtime: the placement is Quotient's own runtimePatches entry, others kept
            Map<String, Object> trainJob = plain(workload);
            TrainJobRuntimePatch.onNodes(nodes).withPodLabels(jobLabels).applyTo(trainJob);
            patch.getAsJsonObject("spec").add("runtimePatches", runtimePatches(trainJob));
            return patch;
        }
        for (List<String> path : kind.podTemplatePaths(workload)) {
            Map<String, Object> podSpec = podSpec(workload, path);
            NodePinning.unpin(podSpec, TemplateRenderer.JOB_LABEL);
            NodePinning.pin(podSpec, nodes);
            if (gang) {
                NodePinning.onePerNode(podSpec, jobLabels);
            }
            JsonObject template = at(patch, path);
            JsonObject metadata = new JsonObject();
            metadata.add("labels", GSON.toJsonTree(jobLabels));
            if (!shareAnnotations.isEmpty()) {
                metadata.add("annotations", GSON.toJsonTree(shareAnnotations));
            }
            template.add("metadata", metadata);
            JsonObject spec = new JsonObject();
            spec.add("affinity", GSON.toJsonTree(podSpec.get("affinity")));
            template.add("spec", spec);
        }
        return patch;
    }

    /**
     * Suspended, with the author's own affinity (or none) back on every pod template: the patches to send in order. A
     * TrainJob is suspended first and loses Quotient's runtimePatches entry after (Trainer allows changing
     * runtimePatches only while the TrainJob is suspended).
     */
    static List<JsonObject> takeBack(ForeignWorkloadKind kind, JsonObject workload, Map<String, String> jobLabels) {
        JsonObject patch = suspendSwitch(kind, true);
        if (kind == ForeignWorkloadKind.TRAIN_JOB) {
            Map<String, Object> trainJob = plain(workload);
            TrainJobRuntimePatch.removeFrom(trainJob);
            JsonObject spec = new JsonObject();
            spec.add("runtimePatches", runtimePatches(trainJob));
            JsonObject withoutPlacement = new JsonObject();
            withoutPlacement.add("spec", spec);
            return List.of(patch, withoutPlacement);
        }
        for (List<String> path : kind.podTemplatePaths(workload)) {
            Map<String, Object> podSpec = podSpec(workload, path);
            NodePinning.unpin(podSpec, TemplateRenderer.JOB_LABEL);
            JsonObject spec = new JsonObject();
            Object affinity = podSpec.get("affinity");
            spec.add("affinity", affinity == null ? JsonNull.INSTANCE : GSON.toJsonTree(affinity));
            at(patch, path).add("spec", spec);
            JsonObject bindings = new JsonObject(); // a share's binding goes with its placement
            JsonTree.strings(JsonTree.object(workload, concat(path, "metadata", "annotations"))).keySet().stream()
                    .filter(key -> key.startsWith(DeferredGpuBinding.ANNOTATION_PREFIX))
                    .forEach(key -> bindings.add(key, JsonNull.INSTANCE));
            if (bindings.size() > 0) {
                JsonObject metadata = new JsonObject();
                metadata.add("annotations", bindings);
                at(patch, path).add("metadata", metadata);
            }
        }
        return List.of(patch);
    }

    private static String[] concat(List<String> path, String... more) {
        List<String> all = new ArrayList<>(path);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static Map<String, Object> plain(JsonObject workload) {
        return GSON.fromJson(workload, new TypeToken<LinkedHashMap<String, Object>>() {}.getType());
    }

    /** The whole list (a merge patch replaces lists), or null to remove it when no entry is left. */
    private static JsonElement runtimePatches(Map<String, Object> trainJob) {
        Object patches = trainJob.get("spec") instanceof Map<?, ?> spec ? spec.get("runtimePatches") : null;
        return patches instanceof List<?> list && !list.isEmpty() ? GSON.toJsonTree(list) : JsonNull.INSTANCE;
    }

    private static JsonObject suspendSwitch(ForeignWorkloadKind kind, boolean suspend) {
        JsonObject patch = new JsonObject();
        List<String> path = kind.suspendPath();
        at(patch, path.subList(0, path.size() - 1)).addProperty(path.get(path.size() - 1), suspend);
        return patch;
    }

    /** The pod spec at {@code templatePath} as plain maps (a copy: changing it changes nothing in the workload). */
    private static Map<String, Object> podSpec(JsonObject workload, List<String> templatePath) {
        JsonObject template = JsonTree.object(workload, templatePath.toArray(String[]::new));
        JsonElement spec = template == null ? null : template.get("spec");
        if (spec == null || !spec.isJsonObject()) {
            return new LinkedHashMap<>();
        }
        return GSON.fromJson(spec, new TypeToken<LinkedHashMap<String, Object>>() {}.getType());
    }

    /** The object at {@code path} in {@code root}, made where missing. */
    private static JsonObject at(JsonObject root, List<String> path) {
        JsonObject current = root;
        for (String step : path) {
            if (!current.has(step) || !current.get(step).isJsonObject()) {
                current.add(step, new JsonObject());
            }
            current = current.getAsJsonObject(step);
        }
        return current;
    }
}

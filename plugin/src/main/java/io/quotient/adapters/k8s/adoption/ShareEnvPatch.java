package io.quotient.adapters.k8s.adoption;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.reflect.TypeToken;
import io.quotient.adapters.template.DeferredGpuBinding;
import io.quotient.core.request.RequestException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * At admission, the env of a share of a GPU on the GPU container of every pod template of a workload (batch Job,
 * PyTorchJob), each variable read from the pod annotation that placement sets ({@link DeferredGpuBinding}): a batch
 * Job's containers cannot change after creation, its pod template's annotations can while it is suspended. The
 * operations are idempotent (a reference already there is Quotient's own and kept); a variable the author set
 * himself is refused, since it would bind the container to a GPU Quotient did not reserve for it.
 */
final class ShareEnvPatch {

    private static final Gson GSON = new Gson();

    private ShareEnvPatch() {}

    /**
     * RFC 6902 operations adding the references.
     *
     * @throws RequestException naming the field, when a template has no GPU container or sets a variable itself
     */
    static JsonArray operations(ForeignWorkloadKind kind, JsonObject workload) {
        JsonArray operations = new JsonArray();
        for (List<String> path : kind.podTemplatePaths(workload)) {
            String field = String.join(".", path);
            JsonObject template = JsonTree.object(workload, path.toArray(String[]::new));
            DeferredGpuBinding.ContainerAt at;
            try {
                at = DeferredGpuBinding.gpuContainer(field, plain(template));
            } catch (IllegalArgumentException e) {
                throw new RequestException(field + ".metadata.annotations", e.getMessage());
            }
            JsonObject container = template.getAsJsonObject("spec")
                    .getAsJsonArray(at.list())
                    .get(at.index())
                    .getAsJsonObject();
            String pointer = "/" + String.join("/", path) + "/spec/" + at.list() + "/" + at.index() + "/env";
            JsonElement env = container.get("env");
            if (env == null || !env.isJsonArray()) {
                JsonArray references = new JsonArray();
                DeferredGpuBinding.variables()
                        .forEach(v -> references.add(GSON.toJsonTree(DeferredGpuBinding.envReference(v))));
                operations.add(add(pointer, references));
                continue;
            }
            for (String variable : DeferredGpuBinding.variables()) {
                JsonObject existing = named(env.getAsJsonArray(), variable);
                if (existing == null) {
                    operations.add(add(pointer + "/-", GSON.toJsonTree(DeferredGpuBinding.envReference(variable))));
                } else if (!DeferredGpuBinding.fieldPath(variable)
                        .equals(JsonTree.text(JsonTree.object(existing, "valueFrom", "fieldRef"), "fieldPath"))) {
                    throw new RequestException(
                            field + ".spec." + at.list() + "[" + at.index() + "].env[" + variable + "]",
                            "is set by Quotient for a share of a GPU (the reserved GPU and its memory limits);"
                                    + " remove it from the container");
                }
            }
        }
        return operations;
    }

    private static JsonObject named(JsonArray env, String name) {
        for (JsonElement entry : env) {
            if (entry.isJsonObject() && name.equals(JsonTree.text(entry.getAsJsonObject(), "name"))) {
                return entry.getAsJsonObject();
            }
        }
        return null;
    }

    private static JsonObject add(String pointer, JsonElement value) {
        JsonObject operation = new JsonObject();
        operation.addProperty("op", "add");
        operation.addProperty("path", pointer);
        operation.add("value", value);
        return operation;
    }

    private static Map<String, Object> plain(JsonObject template) {
        return template == null
                ? new LinkedHashMap<>()
                : GSON.fromJson(template, new TypeToken<LinkedHashMap<String, Object>>() {}.getType());
    }
}

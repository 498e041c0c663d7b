package io.quotient.it.kubeflow;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/** JSON helpers shared by the fake operator's pod builders: a pod made from a template, owned by its job. */
final class TrainingPods {

    /** On every pod the fake operator makes, so one list call finds them all. */
    static final String OPERATOR_LABEL = "quotient.io/fake-training-operator";

    private TrainingPods() {}

    /** A pod from a copy of {@code template} (a PodTemplateSpec), named and labelled, owned by {@code owner}. */
    static JsonObject fromTemplate(JsonObject template, JsonObject owner, String podName, Map<String, String> labels) {
        JsonObject pod = template == null ? new JsonObject() : template.deepCopy();
        pod.addProperty("apiVersion", "v1");
        pod.addProperty("kind", "Pod");
        JsonObject metadata = object(pod, "metadata");
        metadata.remove("creationTimestamp");
        metadata.addProperty("name", podName);
        metadata.addProperty(
                "namespace", owner.getAsJsonObject("metadata").get("namespace").getAsString());
        JsonObject podLabels = object(metadata, "labels");
        podLabels.addProperty(OPERATOR_LABEL, "true");
        labels.forEach(podLabels::addProperty);
        JsonObject reference = new JsonObject();
        reference.add("apiVersion", owner.get("apiVersion"));
        reference.add("kind", owner.get("kind"));
        reference.add("name", owner.getAsJsonObject("metadata").get("name"));
        reference.add("uid", owner.getAsJsonObject("metadata").get("uid"));
        reference.addProperty("controller", true);
        reference.addProperty("blockOwnerDeletion", true);
        JsonArray references = new JsonArray();
        references.add(reference);
        metadata.add("ownerReferences", references);
        object(pod, "spec");
        return pod;
    }

    /** The child object under {@code key}, made empty when absent. */
    static JsonObject object(JsonObject parent, String key) {
        JsonElement child = parent.get(key);
        if (child == null || !child.isJsonObject()) {
            JsonObject created = new JsonObject();
            parent.add(key, created);
            return created;
        }
        return child.getAsJsonObject();
    }

    /** The array under {@code key}, made empty when absent. */
    static JsonArray array(JsonObject parent, String key) {
        JsonElement child = parent.get(key);
        if (child == null || !child.isJsonArray()) {
            JsonArray created = new JsonArray();
            parent.add(key, created);
            return created;
        }
        return child.getAsJsonArray();
    }

    /** The value at a path of object keys, or null when any step is missing. */
    static JsonElement at(JsonObject root, String... path) {
        JsonElement current = root;
        for (String key : path) {
            if (current == null || !current.isJsonObject()) {
                return null;
            }
            current = current.getAsJsonObject().get(key);
        }
        return current == null || current.isJsonNull() ? null : current;
    }

    static boolean isTrue(JsonObject root, String... path) {
        JsonElement value = at(root, path);
        return value != null && value.isJsonPrimitive() && value.getAsBoolean();
    }

    static String name(JsonObject object) {
        return object.getAsJsonObject("metadata").get("name").getAsString();
    }

    static String uid(JsonObject object) {
        return object.getAsJsonObject("metadata").get("uid").getAsString();
    }
}

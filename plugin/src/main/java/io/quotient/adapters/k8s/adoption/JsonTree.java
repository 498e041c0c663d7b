package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reading a workload as the API server sent it (Gson tree): absent members and JSON null read as absent. */
final class JsonTree {

    private JsonTree() {}

    /** The object at {@code path} below {@code root}, or null when any step is missing or not an object. */
    static JsonObject object(JsonObject root, String... path) {
        JsonObject current = root;
        for (String step : path) {
            JsonElement next = current == null ? null : current.get(step);
            current = next != null && next.isJsonObject() ? next.getAsJsonObject() : null;
        }
        return current;
    }

    /** A scalar member as text (numbers as written), or null. */
    static String text(JsonObject object, String member) {
        JsonElement value = object == null ? null : object.get(member);
        return value == null || value.isJsonNull() || !value.isJsonPrimitive() ? null : value.getAsString();
    }

    /** A string map (labels, annotations, limits); non-scalar values are kept as their JSON text. */
    static Map<String, String> strings(JsonObject object) {
        Map<String, String> result = new LinkedHashMap<>();
        if (object != null) {
            for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
                JsonElement value = entry.getValue();
                result.put(entry.getKey(), value.isJsonPrimitive() ? value.getAsString() : value.toString());
            }
        }
        return result;
    }

    /** An integer member, {@code fallback} when absent. */
    static int integer(JsonObject object, String member, int fallback) {
        JsonElement value = object == null ? null : object.get(member);
        return value == null || value.isJsonNull() ? fallback : value.getAsInt();
    }
}

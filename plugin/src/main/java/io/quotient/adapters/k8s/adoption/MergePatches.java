package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * What a JSON merge patch (RFC 7386) would change: the placement patches are computed from the workload as it is,
 * and one the stored object already carries is not sent (each write also goes through the validating webhook and
 * wakes every watcher of the object).
 */
final class MergePatches {

    private MergePatches() {}

    /** Whether applying {@code patch} to {@code target} would give anything but {@code target}. */
    static boolean changes(JsonObject target, JsonObject patch) {
        for (Map.Entry<String, JsonElement> member : patch.entrySet()) {
            JsonElement now = target == null ? null : target.get(member.getKey());
            JsonElement wanted = member.getValue();
            if (wanted.isJsonNull()) {
                if (now != null && !now.isJsonNull()) {
                    return true; // removes a member
                }
            } else if (wanted.isJsonObject()) {
                // a patch object merges into an object and replaces anything else
                JsonObject into = now != null && now.isJsonObject() ? now.getAsJsonObject() : null;
                if (into == null || changes(into, wanted.getAsJsonObject())) {
                    return true;
                }
            } else if (!wanted.equals(now)) {
                return true; // a scalar or an array replaces the member whole
            }
        }
        return false;
    }
}

package io.quotient.adapters.k8s;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reading an {@code admission.k8s.io/v1} AdmissionReview and writing its answer: allowed, refused with a message (HTTP
 * 422 Invalid, which kubectl prints after "denied the request:"), or allowed with a JSONPatch.
 */
public final class AdmissionReviews {

    private static final int INVALID = 422;

    private AdmissionReviews() {}

    /** The review's {@code request}. */
    public static JsonObject request(String reviewJson) {
        JsonObject request =
                JsonParser.parseString(reviewJson).getAsJsonObject().getAsJsonObject("request");
        if (request == null) {
            throw new IllegalArgumentException("not an AdmissionReview: no request");
        }
        return request;
    }

    public static String allowed(JsonObject request) {
        return answer(request, true, null, null);
    }

    public static String refused(JsonObject request, String message) {
        return answer(request, false, message, null);
    }

    /** Allowed after the changes of {@code patch} (RFC 6902 operations); an empty patch is sent as none. */
    public static String patched(JsonObject request, JsonArray patch) {
        return answer(request, true, null, patch.isEmpty() ? null : patch);
    }

    /** A string member of {@code object}, or null. */
    public static String text(JsonObject object, String field) {
        JsonElement value = object == null ? null : object.get(field);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }

    private static String answer(JsonObject request, boolean allowed, String message, JsonArray patch) {
        JsonObject response = new JsonObject();
        response.add("uid", request.get("uid"));
        response.addProperty("allowed", allowed);
        if (message != null) {
            JsonObject status = new JsonObject();
            status.addProperty("code", INVALID);
            status.addProperty("reason", "Invalid");
            status.addProperty("message", message);
            response.add("status", status);
        }
        if (patch != null) {
            response.addProperty("patchType", "JSONPatch");
            response.addProperty(
                    "patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
        }
        JsonObject review = new JsonObject();
        review.addProperty("apiVersion", "admission.k8s.io/v1");
        review.addProperty("kind", "AdmissionReview");
        review.add("response", response);
        return review.toString();
    }
}

package io.quotient.adapters.k8s.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Reading the webhooks' answers in tests: untouched, refused with a message, or the JSONPatch. */
final class AdmissionAnswers {

    private AdmissionAnswers() {}

    static void assertUntouched(JsonObject response) {
        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }

    static String message(JsonObject response) {
        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        return response.getAsJsonObject("status").get("message").getAsString();
    }

    static JsonArray patch(JsonObject response) {
        return JsonParser.parseString(new String(
                        Base64.getDecoder().decode(response.get("patch").getAsString()), StandardCharsets.UTF_8))
                .getAsJsonArray();
    }
}

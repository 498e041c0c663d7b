package io.quotient.adapters.k8s.records;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.tenancy.TeamNamespaces;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admission webhook answers with the REST API's field and reason, and admits what maps to a valid record. */
class GpuJobAdmissionTest {

    private final GpuJobAdmission admission = new GpuJobAdmission(
            new GpuJobMapper(s -> new JobSpecValidator().validateRequest(s.request())),
            new TenantScope("quotient-system", () -> TeamNamespaces.of(Map.of("team-a", List.of("ml-a")), null)));

    @Test
    void anInvalidRequestIsDeniedWithTheRestMessage() {
        JsonObject response = review("ml-a", "{\"gpu\": {\"fraction\": 0.5, \"fractionLimit\": 0.3}}");
        assertThat(response.get("uid").getAsString()).isEqualTo("u-1");
        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        assertThat(response.getAsJsonObject("status").get("code").getAsInt()).isEqualTo(422);
        assertThat(response.getAsJsonObject("status").get("message").getAsString())
                .isEqualTo("gpu.fractionLimit: (0.3) must not be below gpu.fraction (0.5)");
    }

    @Test
    void aValidRequestInATeamNamespaceIsAllowedAndOneOutsideIsDenied() {
        assertThat(review("ml-a", "{\"gpu\": {\"count\": 2}}").get("allowed").getAsBoolean())
                .isTrue();
        JsonObject outside = review("default", "{\"gpu\": {\"count\": 2}}");
        assertThat(outside.get("allowed").getAsBoolean()).isFalse();
        assertThat(outside.getAsJsonObject("status").get("message").getAsString())
                .contains("belongs to no team");
    }

    @Test
    void aUserMayNotNameAWorkloadForTheServiceToGovern() {
        JsonObject response = review(
                "ml-a",
                "{\"gpu\": {\"count\": 1}, \"workloadRef\": {\"apiVersion\": \"batch/v1\","
                        + " \"kind\": \"Job\", \"name\": \"other\", \"uid\": \"u\"}}");
        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        assertThat(response.getAsJsonObject("status").get("message").getAsString())
                .startsWith("spec.workloadRef: is set by Quotient only");
    }

    private JsonObject review(String namespace, String spec) {
        String request = """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "u-1", "operation": "CREATE", "namespace": "%s",
                  "object": {"apiVersion": "quotient.io/v1alpha1", "kind": "GpuJob",
                             "metadata": {"name": "train", "namespace": "%s"}, "spec": %s}}}
                """.formatted(namespace, namespace, spec);
        JsonObject answer = JsonParser.parseString(admission.review(request)).getAsJsonObject();
        assertThat(answer.get("kind").getAsString()).isEqualTo("AdmissionReview");
        return answer.getAsJsonObject("response");
    }
}

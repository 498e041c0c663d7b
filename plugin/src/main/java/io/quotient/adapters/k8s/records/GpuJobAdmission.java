package io.quotient.adapters.k8s.records;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import io.quotient.adapters.k8s.AdmissionReviews;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.request.RequestException;
import io.quotient.core.request.UnknownTeamException;
import io.quotient.deploy.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validating admission webhook of GpuJobs ({@code admission.k8s.io/v1} AdmissionReview in, AdmissionReview out):
 * a GpuJob applied with kubectl is checked with the same rules, fields and messages as a REST request, so an invalid
 * one is refused by the API server itself and never stored. Allowed: everything that maps to a valid record.
 * The service's own GpuJobs (labelled managed-by quotient) are excluded by the webhook's object selector; if the
 * webhook is not installed, the service marks an invalid GpuJob Failed instead ({@link RefusedGpuJobs}).
 */
public final class GpuJobAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(GpuJobAdmission.class);

    private final GpuJobMapper mapper;
    private final TenantScope scope;
    private final JSON json = new JSON();

    public GpuJobAdmission(GpuJobMapper mapper, TenantScope scope) {
        this.mapper = mapper;
        this.scope = scope;
    }

    /** The AdmissionReview answering {@code reviewJson}. */
    public String review(String reviewJson) {
        JsonObject request = AdmissionReviews.request(reviewJson);
        String refusal = refusal(request);
        return refusal == null ? AdmissionReviews.allowed(request) : AdmissionReviews.refused(request, refusal);
    }

    /** Why the GpuJob is refused, or null when it is admitted. */
    private String refusal(JsonObject request) {
        JsonElement object = request.get("object");
        if (!"CREATE".equals(text(request, "operation")) || object == null || !object.isJsonObject()) {
            return null; // the spec cannot change afterwards; status writes are the service's
        }
        GpuJobResource resource = json.deserialize(object.toString(), GpuJobResource.class);
        if (resource.getMetadata().getNamespace() == null) {
            resource.getMetadata().setNamespace(text(request, "namespace"));
        }
        if (resource.getSpec() == null) {
            return "spec: is required";
        }
        if (resource.getSpec().workloadRef() != null) {
            return "spec.workloadRef: is set by Quotient only, on the record of a workload it adopted; leave it out";
        }
        try {
            mapper.toRecord(resource, scope.now());
            return null;
        } catch (RequestException | UnknownTeamException | IllegalArgumentException e) {
            LOG.info(
                    "GpuJob {}/{} refused at admission: {}",
                    resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(),
                    LogValues.escape(e.getMessage()));
            return e.getMessage();
        }
    }

    private static String text(JsonObject object, String field) {
        return AdmissionReviews.text(object, field);
    }
}

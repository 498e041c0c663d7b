package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.ApiResponse;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.adapters.k8s.GpuJobResource;

/**
 * Replaces a GpuJob's status through its status subresource ({@code PUT .../gpujobs/NAME/status}), with the object's
 * resourceVersion as precondition. client-java's generic {@code updateStatus} sends a PATCH that the API server
 * refuses (HTTP 415), so the call is made with the plain custom-objects API and read back as a GpuJob.
 */
public final class GpuJobStatusWriter {

    private final ApiClient client;
    private final CustomObjectsApi customObjects;

    public GpuJobStatusWriter(ApiClient client) {
        this.client = client;
        this.customObjects = new CustomObjectsApi(client);
    }

    public KubernetesApiResponse<GpuJobResource> replaceStatus(GpuJobResource update) {
        try {
            var call = customObjects
                    .replaceNamespacedCustomObjectStatus(
                            GpuJobResource.GROUP,
                            GpuJobResource.VERSION,
                            update.getMetadata().getNamespace(),
                            GpuJobResource.PLURAL,
                            update.getMetadata().getName(),
                            update)
                    .buildCall(null);
            ApiResponse<GpuJobResource> response = client.execute(call, GpuJobResource.class);
            return new KubernetesApiResponse<>(response.getData());
        } catch (ApiException e) {
            V1Status status = new V1Status().code(e.getCode()).message(e.getResponseBody());
            return new KubernetesApiResponse<>(status, e.getCode());
        }
    }
}

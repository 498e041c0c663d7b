package io.quotient.adapters.k8s.records;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.quotient.adapters.k8s.GpuJobResource;
import java.util.ArrayList;
import java.util.List;

/** A list of {@link GpuJobResource}s as the API server returns it (needed by client-java's generic API). */
public final class GpuJobList implements KubernetesListObject {

    private String apiVersion = GpuJobResource.API_VERSION;
    private String kind = GpuJobResource.KIND + "List";
    private V1ListMeta metadata;
    private List<GpuJobResource> items = new ArrayList<>();

    @Override
    public V1ListMeta getMetadata() {
        return metadata;
    }

    @Override
    public List<GpuJobResource> getItems() {
        return items;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }
}

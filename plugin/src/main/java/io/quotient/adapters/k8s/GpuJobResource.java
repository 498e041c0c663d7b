package io.quotient.adapters.k8s;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.quotient.adapters.k8s.records.GpuJobSpec;
import io.quotient.adapters.k8s.records.GpuJobStatus;

/**
 * The {@code GpuJob} custom resource ({@code quotient.io/v1alpha1}, see deploy/10-gpujobs-crd.yaml) as
 * serialised by client-java's Gson. A mutable bean because client-java's generic API and informers expect one;
 * the spec and status parts are records.
 */
public final class GpuJobResource implements KubernetesObject {

    public static final String GROUP = "quotient.io";
    public static final String VERSION = "v1alpha1";
    public static final String PLURAL = "gpujobs";
    public static final String KIND = "GpuJob";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    private String apiVersion = API_VERSION;
    private String kind = KIND;
    private V1ObjectMeta metadata;
    private GpuJobSpec spec;
    private GpuJobStatus status;

    public GpuJobResource() {}

    public GpuJobResource(V1ObjectMeta metadata, GpuJobSpec spec, GpuJobStatus status) {
        this.metadata = metadata;
        this.spec = spec;
        this.status = status;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public GpuJobSpec getSpec() {
        return spec;
    }

    public GpuJobStatus getStatus() {
        return status;
    }

    public void setStatus(GpuJobStatus status) {
        this.status = status;
    }

    public void setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
    }
}

package io.quotient.it.deploy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;

/** GpuJob objects for the tenancy and admission tests: listed in a namespace, or built for a create. */
final class GpuJobObjects {

    private GpuJobObjects() {}

    static List<DynamicKubernetesObject> gpuJobs(ApiClient admin, String namespace) {
        return new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", admin)
                .list(namespace)
                .getObject()
                .getItems();
    }

    /** A GpuJob with this spec and, when not null, a status (both JSON text); the names are set as JSON values. */
    static DynamicKubernetesObject gpuJob(String namespace, String name, String spec, String status) {
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", name);
        metadata.addProperty("namespace", namespace);
        JsonObject json = new JsonObject();
        json.addProperty("apiVersion", "quotient.io/v1alpha1");
        json.addProperty("kind", "GpuJob");
        json.add("metadata", metadata);
        json.add("spec", JsonParser.parseString(spec));
        if (status != null) {
            json.add("status", JsonParser.parseString(status));
        }
        return new DynamicKubernetesObject(json);
    }
}

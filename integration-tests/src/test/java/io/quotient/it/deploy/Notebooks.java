package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the notebook ITs do as a Kubeflow user and as the kubelet's observer: Notebooks created through the API server
 * (the fake notebook controller makes their StatefulSets), the pod webhook awaited, and notebook pods read.
 */
final class Notebooks {

    static final String IMAGE = "busybox:1.36";

    private Notebooks() {}

    /** The API server loads a new webhook configuration a moment after it is created: wait until pods go through it. */
    static void awaitPodWebhook(CoreV1Api core, String namespace) {
        V1Pod probe = barePod("probe", 0);
        probe.getMetadata().setAnnotations(Map.of("gpu-fraction", "2"));
        Await.until(
                "the pod webhook to refuse an invalid gpu-fraction",
                () -> {
                    try {
                        core.createNamespacedPod(namespace, probe).execute();
                        core.deleteNamespacedPod("probe", namespace)
                                .gracePeriodSeconds(0)
                                .execute();
                        return "";
                    } catch (ApiException e) {
                        return e.getResponseBody() == null ? "" : e.getResponseBody();
                    }
                },
                body -> body.contains("metadata.annotations[gpu-fraction]"));
    }

    static V1Container container(int gpus) {
        V1Container container = new V1Container().name("notebook").image(IMAGE).command(List.of("sleep", "3600"));
        if (gpus > 0) {
            container.resources(
                    new V1ResourceRequirements().limits(Map.of("nvidia.com/gpu", new Quantity(String.valueOf(gpus)))));
        }
        return container;
    }

    static V1Pod barePod(String name, int gpus) {
        V1Container container = container(gpus);
        return new V1Pod()
                .apiVersion("v1")
                .kind("Pod")
                .metadata(new V1ObjectMeta().name(name))
                .spec(new V1PodSpec()
                        .containers(List.of(container))
                        .overhead(null)); // the model's empty map is refused
    }

    static JsonObject json(V1Container container) {
        return new JSON().getGson().toJsonTree(container).getAsJsonObject();
    }

    static void create(DynamicKubernetesApi notebooks, JsonObject notebook) {
        KubernetesApiResponse<DynamicKubernetesObject> created =
                notebooks.create(new DynamicKubernetesObject(notebook));
        assertThat(created.isSuccess())
                .as(
                        "HTTP %s %s",
                        created.getHttpStatusCode(),
                        created.getStatus() == null ? "" : created.getStatus().getMessage())
                .isTrue();
    }

    static V1Pod awaitRunning(CoreV1Api core, String namespace, String name) {
        return Await.until(
                        "pod " + name + " to run",
                        () -> pod(core, namespace, name),
                        pod -> pod.isPresent()
                                && pod.get().getStatus() != null
                                && "Running".equals(pod.get().getStatus().getPhase()))
                .get();
    }

    static Optional<V1Pod> pod(CoreV1Api core, String namespace, String name) throws ApiException {
        try {
            return Optional.of(core.readNamespacedPod(name, namespace).execute());
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The replicas a notebook's StatefulSet asks for; -1 while there is none. */
    static int replicas(DynamicKubernetesApi statefulSets, String ns, String name) {
        KubernetesApiResponse<DynamicKubernetesObject> set = statefulSets.get(ns, name);
        if (!set.isSuccess()) {
            return -1;
        }
        JsonObject spec = set.getObject().getRaw().getAsJsonObject("spec");
        return spec.has("replicas") ? spec.get("replicas").getAsInt() : 1;
    }
}

package io.quotient.it.kubeflow;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Installs the Kubeflow workload APIs Quotient governs (PyTorchJob, TrainJob with ClusterTrainingRuntime, Notebook)
 * into the test plane, from the project's own structural CRDs under {@code src/test/resources/kubeflow/}. They are
 * created as raw JSON (client-java's typed CRD models drop schema fields) and left in place for later test classes:
 * a CRD that exists already is kept.
 */
public final class KubeflowCrds {

    private static final List<String> FILES =
            List.of("pytorchjobs.yaml", "trainjobs.yaml", "clustertrainingruntimes.yaml", "notebooks.yaml");
    private static final Gson GSON = new Gson();

    private KubeflowCrds() {}

    /** Creates the CRDs that are missing and waits until the API server serves every one. */
    public static void install(ApiClient client) {
        DynamicKubernetesApi crds =
                new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        for (String file : FILES) {
            DynamicKubernetesObject crd =
                    new DynamicKubernetesObject(GSON.toJsonTree(load(file)).getAsJsonObject());
            KubernetesApiResponse<DynamicKubernetesObject> created = crds.create(crd);
            if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
                throw new IllegalStateException(
                        "creating the CRD of kubeflow/" + file + " failed: HTTP " + created.getHttpStatusCode() + " "
                                + created.getStatus().getMessage());
            }
            String name = crd.getMetadata().getName();
            Await.until(
                    "CRD " + name + " to be established",
                    () -> crds.get(name).getObject(),
                    stored -> stored != null
                            && stored.getRaw().toString().contains("\"type\":\"Established\",\"status\":\"True\""));
        }
    }

    private static Object load(String file) {
        try (InputStream in = KubeflowCrds.class.getResourceAsStream("/kubeflow/" + file)) {
            if (in == null) {
                throw new IllegalStateException("kubeflow/" + file + " is missing from the test resources");
            }
            return new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kubeflow/" + file, e);
        }
    }
}

package io.quotient.it.deploy;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Applies the manifests of {@code deploy/} the way {@code kubectl apply} would (create, or merge into what exists),
 * through client-java's dynamic API with the YAML turned into raw JSON: client-java's typed CRD models drop
 * schema fields, so CRDs must not go through them.
 */
public final class QuotientManifests {

    private static final Set<String> CLUSTER_SCOPED =
            Set.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "PriorityClass");
    private static final Gson GSON = new Gson();

    private QuotientManifests() {}

    static Path deployDir() {
        Path fromModule = Path.of("..", "deploy");
        return Files.isDirectory(fromModule) ? fromModule : Path.of("deploy");
    }

    /** Installs (or updates) the GpuJob CRD and waits until the API server serves it. */
    public static void installCrd(ApiClient client) {
        apply(client, deployDir().resolve("10-gpujobs-crd.yaml"));
        DynamicKubernetesApi crds =
                new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        Await.until(
                "the GpuJob CRD to be established",
                () -> crds.get("gpujobs.quotient.io").getObject(),
                crd -> crd != null && crd.getRaw().toString().contains("\"type\":\"Established\",\"status\":\"True\""));
    }

    /** The CRD, the quotient-system namespace and the RBAC of deploy/ (the quotient-team-member ClusterRole among it). */
    static void installCrdAndRoles(ApiClient client) {
        installCrd(client);
        apply(client, deployDir().resolve("00-namespace.yaml"), deployDir().resolve("20-rbac.yaml"));
    }

    /** Applies every document of the files, in the given order; returns the objects as the API server stored them. */
    static List<DynamicKubernetesObject> apply(ApiClient client, Path... files) {
        List<DynamicKubernetesObject> stored = new ArrayList<>();
        for (Path file : files) {
            for (Object document : documents(file)) {
                stored.add(applyOne(client, GSON.toJsonTree(document).getAsJsonObject(), file));
            }
        }
        return stored;
    }

    /** Every {@code *.yaml} of deploy/, in name order (the order kubectl apply -f deploy/ uses). */
    static Path[] allFiles() {
        try (var files = Files.list(deployDir())) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toArray(Path[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static DynamicKubernetesObject applyOne(ApiClient client, JsonObject json, Path file) {
        String apiVersion = json.get("apiVersion").getAsString();
        String kind = json.get("kind").getAsString();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        DynamicKubernetesApi api = new DynamicKubernetesApi(group, version, plural(kind), client);
        DynamicKubernetesObject object = new DynamicKubernetesObject(json);
        String name = object.getMetadata().getName();
        String namespace =
                CLUSTER_SCOPED.contains(kind) ? null : object.getMetadata().getNamespace();
        KubernetesApiResponse<DynamicKubernetesObject> created = api.create(object);
        if (created.isSuccess()) {
            return created.getObject();
        }
        if (created.getHttpStatusCode() != 409) {
            throw new AssertionError(file + ": creating " + kind + " " + name + " failed: HTTP "
                    + created.getHttpStatusCode() + " " + created.getStatus().getMessage());
        }
        // what exists is merged with the manifest, as kubectl apply does (fields the server set, e.g. clusterIP, stay)
        V1Patch patch = new V1Patch(json.toString());
        KubernetesApiResponse<DynamicKubernetesObject> replaced = namespace == null
                ? api.patch(name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, patch)
                : api.patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, patch);
        if (!replaced.isSuccess()) {
            throw new AssertionError(file + ": updating " + kind + " " + name + " failed: HTTP "
                    + replaced.getHttpStatusCode() + " " + replaced.getStatus().getMessage());
        }
        return replaced.getObject();
    }

    private static String plural(String kind) {
        String lower = kind.toLowerCase(Locale.ROOT);
        return lower.endsWith("ss")
                ? lower + "es"
                : lower.endsWith("y") ? lower.substring(0, lower.length() - 1) + "ies" : lower + "s";
    }

    private static List<Object> documents(Path file) {
        try {
            List<Object> documents = new ArrayList<>();
            new Yaml(new SafeConstructor(new LoaderOptions()))
                    .loadAll(Files.readString(file))
                    .forEach(d -> {
                        if (d instanceof Map<?, ?>) {
                            documents.add(d);
                        }
                    });
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}

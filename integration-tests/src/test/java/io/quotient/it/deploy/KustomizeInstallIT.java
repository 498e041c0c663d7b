package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.HarnessSettings;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.ScriptRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The kustomize install (docs/operations.md, "Installing with kustomize") with Debian's kubectl 1.20, whose built-in
 * kustomize is the oldest the manifests must work with: {@code kubectl kustomize overlays/example} renders the base of
 * {@code deploy/} with the example's images, namespace, teams and certificate, and that output, applied with
 * {@code kubectl apply} to the real control plane, brings the service up: its two pods are bound by the scheduler
 * (they never run here: the images are in no registry this machine reaches).
 */
@RealKubernetes
class KustomizeInstallIT {

    private static final String NAMESPACE = "gpu-platform";
    private static final Duration KUBECTL = Duration.ofMinutes(5);
    private static Path kubectl;
    private static String rendered;
    private static List<Map<String, Object>> objects;

    @BeforeAll
    static void render() {
        Path scripts = HarnessSettings.fromSystemProperties().scriptsDir();
        List<String> found = ScriptRunner.run(
                KUBECTL, List.of(scripts.resolve("debian-kubectl").toString()));
        kubectl = Path.of(found.get(found.size() - 1));
        rendered = String.join(
                "\n",
                ScriptRunner.run(
                        KUBECTL,
                        List.of(kubectl.toString(), "kustomize", overlay().toString())));
        objects = new ArrayList<>();
        new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(rendered).forEach(d -> {
            if (d instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> object = (Map<String, Object>) map;
                objects.add(object);
            }
        });
    }

    @AfterAll
    static void removeTheInstall(ApiClient client) throws Exception {
        new CoreV1Api(client).deleteNamespace(NAMESPACE).execute();
    }

    @Test
    void theBaseListsEveryManifestOfDeploy() throws Exception {
        Map<String, Object> base = new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Files.readString(QuotientManifests.deployDir().resolve("Kustomization")));
        List<String> manifests;
        try (var files = Files.list(QuotientManifests.deployDir())) {
            manifests = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
        assertThat(base.get("resources"))
                .as("deploy/Kustomization must list every manifest of deploy/")
                .asList()
                .containsExactlyInAnyOrderElementsOf(manifests);
    }

    @Test
    void theOverlayRendersItsImagesNamespaceTeamsAndAdmissionPort() {
        assertThat(objects)
                .filteredOn(o -> "Namespace".equals(o.get("kind")))
                .extracting(o -> name(o))
                .containsExactly(NAMESPACE);
        assertThat(objects)
                .filteredOn(o -> !clusterScoped(o))
                .allSatisfy(o -> assertThat(metadata(o).get("namespace"))
                        .as(o.get("kind") + " " + name(o))
                        .isEqualTo(NAMESPACE));
        assertThat(rendered)
                .doesNotContain("quotient-system")
                .contains(
                        "image: registry.example.com/gpu-platform/quotient:0.1.0",
                        "image: registry.example.com/gpu-platform/quotient-node-enforcer:0.1.0",
                        "--quotient.kubernetes.namespace=" + NAMESPACE)
                .doesNotContain("ghcr.io/quotient-io");
        Map<String, Object> teams = find("ConfigMap", "quotient-teams");
        assertThat(((Map<?, ?>) teams.get("data")).get("teams.yaml").toString()).contains("name: vision", "name: nlp");
        // the webhooks' certificate is issued by the service into its namespace: no Secret to ship, the port is open
        assertThat(objects).noneMatch(o -> "Secret".equals(o.get("kind")));
        assertThat(rendered).contains("--quotient.admission.port=8443", "targetPort: admission");
    }

    @Test
    void kubectlApplyOfTheOutputBringsTheServiceUpWithItsPodsBound(
            ControlPlane plane, ApiClient client, FakeGpuNodes nodes) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("kustomize", 8, 81_559, "NVIDIA-H100"));
        nodes.create(FakeGpuNodeSpec.of("kustomize", 8, 81_559, "NVIDIA-H100"));
        Path output = Files.createDirectories(Path.of("target")).resolve("kustomize-example.yaml");
        Files.writeString(output, rendered);

        ScriptRunner.run(
                KUBECTL,
                List.of(
                        kubectl.toString(),
                        "--kubeconfig",
                        plane.kubeconfig().toString(),
                        "apply",
                        "-f",
                        output.toString()));

        CoreV1Api core = new CoreV1Api(client);
        List<V1Pod> bound = Await.until(
                "the service's two pods to be bound to nodes",
                Duration.ofMinutes(2),
                () -> core
                        .listNamespacedPod(NAMESPACE)
                        .labelSelector("app.kubernetes.io/name=quotient")
                        .execute()
                        .getItems()
                        .stream()
                        .filter(p -> p.getSpec().getNodeName() != null)
                        .toList(),
                pods -> pods.size() == 2);
        assertThat(bound)
                .extracting(p -> p.getSpec().getContainers().get(0).getImage())
                .containsOnly("registry.example.com/gpu-platform/quotient:0.1.0");
        assertThat(bound)
                .allSatisfy(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("PodScheduled");
                    assertThat(c.getStatus()).isEqualTo("True");
                }));
        assertThat(core.readNamespacedConfigMap("quotient-teams", NAMESPACE)
                        .execute()
                        .getData()
                        .get("teams.yaml"))
                .contains("name: vision");
    }

    private static Path overlay() {
        return QuotientManifests.deployDir().resolveSibling("overlays").resolve("example");
    }

    private static Map<String, Object> find(String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(o.get("kind")) && name.equals(name(o)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the overlay renders no " + kind + " " + name));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(Map<String, Object> object) {
        return (Map<String, Object>) object.get("metadata");
    }

    private static String name(Map<String, Object> object) {
        return (String) metadata(object).get("name");
    }

    private static boolean clusterScoped(Map<String, Object> object) {
        return List.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding")
                .contains(object.get("kind"));
    }
}

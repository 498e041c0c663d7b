package io.quotient.enforcer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/node-enforcer.yaml: what the enforcer needs to work (host PIDs, CAP_KILL, the pod-resources
 * socket, the NVIDIA runtime, its node's name) and no more (not privileged, every other capability
 * dropped, least-privilege RBAC).
 */
class DaemonSetManifestTest {

    private static final Path MANIFEST = Path.of("..", "deploy", "node-enforcer.yaml");
    private static List<Map<String, Object>> documents;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void parse() throws IOException {
        documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(MANIFEST)) {
            for (Object document : new Yaml().loadAll(reader)) {
                documents.add((Map<String, Object>) document);
            }
        }
    }

    @Test
    void theDaemonSetSeesHostPidsWithOnlyCapKill() {
        Map<String, Object> pod = map(of("DaemonSet", "quotient-node-enforcer").get("spec"), "template", "spec");
        assertThat(pod)
                .containsEntry("hostPID", true)
                .containsEntry("runtimeClassName", "nvidia")
                .containsEntry("serviceAccountName", "quotient-node-enforcer")
                .doesNotContainKey("hostNetwork");
        Map<String, Object> container = onlyContainer(pod);
        Map<String, Object> security = map(container, "securityContext");
        assertThat(Optional.ofNullable(security.get("privileged")).orElse(false))
                .isEqualTo(false);
        assertThat(security).containsEntry("allowPrivilegeEscalation", false);
        assertThat(map(security, "capabilities"))
                .containsEntry("drop", List.of("ALL"))
                .containsEntry("add", List.of("KILL"));
    }

    @Test
    void theDaemonSetRunsOnGpuNodesWithThePodResourcesSocketAndItsNodeName() {
        Map<String, Object> pod = map(of("DaemonSet", "quotient-node-enforcer").get("spec"), "template", "spec");
        assertThat(list(
                                map(pod, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"),
                                "nodeSelectorTerms")
                        .toString())
                .contains("key=nvidia.com/gpu.present", "values=[true]");
        assertThat(list(pod, "volumes"))
                .anySatisfy(volume ->
                        assertThat(map(volume, "hostPath")).containsEntry("path", "/var/lib/kubelet/pod-resources"));
        Map<String, Object> container = onlyContainer(pod);
        assertThat(list(container, "volumeMounts"))
                .anySatisfy(mount -> assertThat(mount).containsEntry("mountPath", "/var/lib/kubelet/pod-resources"));
        assertThat(list(container, "env")).anySatisfy(env -> {
            assertThat(env).containsEntry("name", "NODE_NAME");
            assertThat(map(env, "valueFrom", "fieldRef")).containsEntry("fieldPath", "spec.nodeName");
        });
        assertThat(map(container, "readinessProbe", "httpGet")).containsEntry("path", "/actuator/health/readiness");
        assertThat(map(container, "livenessProbe", "httpGet")).containsEntry("path", "/actuator/health/liveness");
    }

    @Test
    void everyObjectLivesInQuotientSystemOrIsClusterScoped() {
        assertThat(documents)
                .extracting(d -> d.get("kind"))
                .containsExactlyInAnyOrder(
                        "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "DaemonSet");
        for (Map<String, Object> document : documents) {
            Object namespace = map(document, "metadata").get("namespace");
            if (document.get("kind").toString().startsWith("Cluster")) {
                assertThat(namespace)
                        .as("%s is cluster-scoped", document.get("kind"))
                        .isNull();
            } else {
                assertThat(namespace)
                        .as("namespace of the %s", document.get("kind"))
                        .isEqualTo("quotient-system");
            }
        }
    }

    @Test
    void rbacGrantsOnlyWhatTheEnforcerDoes() {
        assertThat(rules(of("ClusterRole", "quotient-node-enforcer")))
                .containsExactlyInAnyOrder("pods:[get, list, watch]", "events:[create]", "nodes:[get, patch]");
        assertThat(rules(of("Role", "quotient-node-enforcer"))).containsExactly("pods:[patch]");
        for (String binding : List.of("ClusterRoleBinding", "RoleBinding")) {
            Map<String, Object> document = of(binding, "quotient-node-enforcer");
            assertThat(list(document, "subjects"))
                    .singleElement()
                    .satisfies(subject -> assertThat(subject)
                            .containsEntry("kind", "ServiceAccount")
                            .containsEntry("name", "quotient-node-enforcer")
                            .containsEntry("namespace", "quotient-system"));
        }
    }

    private static List<String> rules(Map<String, Object> role) {
        List<String> rules = new ArrayList<>();
        for (Map<String, Object> rule : list(role, "rules")) {
            assertThat(rule.get("apiGroups")).as("core API group only").isEqualTo(List.of(""));
            for (Object resource : (List<?>) rule.get("resources")) {
                rules.add(resource + ":" + rule.get("verbs"));
            }
        }
        return rules;
    }

    private static Map<String, Object> of(String kind, String name) {
        return documents.stream()
                .filter(d -> kind.equals(d.get("kind"))
                        && name.equals(map(d, "metadata").get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in " + MANIFEST));
    }

    private static Map<String, Object> onlyContainer(Map<String, Object> pod) {
        List<Map<String, Object>> containers = list(pod, "containers");
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object from, String... path) {
        Object current = from;
        for (String key : path) {
            assertThat(current).as("parent of %s", key).isInstanceOf(Map.class);
            current = ((Map<String, Object>) current).get(key);
            assertThat(current).as(key).isNotNull();
        }
        return (Map<String, Object>) current;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> from, String key) {
        Object value = from.get(key);
        assertThat(value).as(key).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }
}

package io.quotient.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.KubeCalls;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The controllers Quotient relies on besides the job controller: namespace, garbage collector, tokens. */
@RealKubernetes
class ControllersIT {

    @Test
    void namespaceControllerDeletesANamespaceWithItsContents(ApiClient client) throws ApiException {
        CoreV1Api api = new CoreV1Api(client);
        String name = "doomed-" + UUID.randomUUID().toString().substring(0, 8);
        api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name)))
                .execute();
        api.createNamespacedConfigMap(
                        name,
                        new V1ConfigMap()
                                .metadata(new V1ObjectMeta().name("settings"))
                                .data(Map.of("team", "vision")))
                .execute();

        KubeCalls.deleteIgnoringMissing(
                "deleting namespace " + name, () -> api.deleteNamespace(name).buildCall(null));

        Await.until(
                "namespace " + name + " to disappear",
                () -> api.listNamespace()
                        .fieldSelector("metadata.name=" + name)
                        .execute()
                        .getItems(),
                List::isEmpty);
        assertThatThrownBy(() -> api.readNamespacedConfigMap("settings", name).execute())
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }

    @Test
    void garbageCollectorRemovesThePodsOfADeletedJob(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes)
            throws ApiException {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("gc", 1, 15_360, "Tesla-T4"));
        BatchV1Api batch = new BatchV1Api(client);
        batch.createNamespacedJob(namespace.name(), Workloads.gpuJob("orphan", 1, node.name()))
                .execute();
        Await.until(
                "the job's pod to run",
                () -> SchedulingIT.podsOfJob(client, namespace, "orphan"),
                pods -> pods.stream()
                        .anyMatch(p -> "Running".equals(p.getStatus().getPhase())));

        KubeCalls.deleteIgnoringMissing(
                "deleting job orphan",
                () -> batch.deleteNamespacedJob("orphan", namespace.name())
                        .propagationPolicy("Background")
                        .buildCall(null));

        List<V1Pod> left = Await.until(
                "the garbage collector to delete the job's pod",
                () -> SchedulingIT.podsOfJob(client, namespace, "orphan"),
                List::isEmpty);
        assertThat(left).isEmpty();
    }
}

package io.quotient.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a killed test JVM leaves on a reused plane is removed before the next run's tests start. */
@RealKubernetes
class LeftoversIT {

    @Test
    void fakeNodesTheirPodsAndTestNamespacesOfAKilledRunAreRemoved(ApiClient client) throws ApiException {
        CoreV1Api api = new CoreV1Api(client);
        // Made without the extension, and never closed: as a JVM killed mid-test leaves them.
        FakeGpuNode node = new FakeGpuNodes(client).create(FakeGpuNodeSpec.of("stray", 8, 81_559, "NVIDIA-H100"));
        TestNamespace namespace = TestNamespace.create(client, 20, "stray");
        // Bound directly (as the scheduler would have): Kubernetes < 1.24 rejects the empty overhead client-java sends.
        V1Pod pod = new V1Pod()
                .metadata(new V1ObjectMeta().name("stray"))
                .spec(new V1PodSpec()
                        .overhead(null)
                        .nodeName(node.name())
                        .containers(List.of(new V1Container().name("main").image("pause"))));
        api.createNamespacedPod(namespace.name(), pod).execute();

        int removed = Leftovers.remove(client);

        assertThat(removed).isGreaterThanOrEqualTo(2);
        assertThat(api.listNode()
                        .fieldSelector("metadata.name=" + node.name())
                        .execute()
                        .getItems())
                .isEmpty();
        Await.until(
                "the stray namespace to be deleted",
                () -> api.listNamespace()
                        .fieldSelector("metadata.name=" + namespace.name())
                        .execute()
                        .getItems(),
                (List<V1Namespace> found) ->
                        found.isEmpty() || found.get(0).getMetadata().getDeletionTimestamp() != null);
        Await.until(
                "the stray pod to be gone",
                () -> api.listNamespacedPod(namespace.name()).execute().getItems(),
                List::isEmpty);
    }
}

package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;

/**
 * Removes what an earlier, killed test JVM left on a control plane that is being reused (kept with
 * {@code quotient.it.keepControlPlane=true}, or found running by {@code control-plane up}): its fake GPU
 * nodes with their pods, and its test namespaces. A stray 8-GPU node would otherwise take pods that a test
 * expects to stay Pending, or to land on the node it made.
 */
final class Leftovers {

    private Leftovers() {}

    /** Returns how many nodes and namespaces were removed (0 on a fresh plane). */
    static int remove(ApiClient client) {
        CoreV1Api api = new CoreV1Api(client);
        int removed = 0;
        for (V1Node node : call(
                        "listing leftover fake GPU nodes",
                        () -> api.listNode()
                                .labelSelector(Conventions.FAKE_NODE_LABEL + "=true")
                                .execute())
                .getItems()) {
            String name = node.getMetadata().getName();
            FakeGpuNodes.deletePodsOn(api, name);
            deleteIgnoringMissing(
                    "deleting leftover fake node " + name,
                    () -> api.deleteNode(name).buildCall(null));
            removed++;
        }
        for (V1Namespace namespace : call(
                        "listing leftover test namespaces",
                        () -> api.listNamespace()
                                .labelSelector(Conventions.TEST_NAMESPACE_LABEL + "=true")
                                .execute())
                .getItems()) {
            String name = namespace.getMetadata().getName();
            if (namespace.getMetadata().getDeletionTimestamp() == null) {
                TestNamespace.delete(api, name);
                removed++;
            }
        }
        return removed;
    }
}

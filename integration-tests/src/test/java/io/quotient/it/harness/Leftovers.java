package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;

/**
 * Removes what an earlier, killed test JVM left on a control plane that is being reused (kept with
 * {@code quotient.it.keepControlPlane=true}, or found running by {@code control-plane up}): its fake GPU
 * nodes with their pods, and its test namespaces. A stray 8-GPU node would otherwise take pods that a test
 * expects to stay Pending, or to land on the node it made.
 */
final class Leftovers {

  private Leftovers() {
  }

  /** Returns how many nodes and namespaces were removed (0 on a fresh plane). */
  static int remove(ApiClient client) {
    CoreV1Api api = new CoreV1Api(client);
    int removed = 0;
    for (V1Node node : call("listing leftover fake GPU nodes", () -> api.listNode()
        .labelSelector(Conventions.FAKE_NODE_LABEL + "=true").execute()).getItems()) {
      String name = node.getMetadata().getName();
      for (V1Pod pod : call("listing pods on leftover node " + name, () -> api.listPodForAllNamespaces()
          .fieldSelector("spec.nodeName=" + name).execute()).getItems()) {
        String podName = pod.getMetadata().getName();
        String namespace = pod.getMetadata().getNamespace();
        deleteIgnoringMissing("deleting pod " + namespace + "/" + podName + " of leftover node " + name,
            () -> api.deleteNamespacedPod(podName, namespace).gracePeriodSeconds(0).buildCall(null));
      }
      deleteIgnoringMissing("deleting leftover fake node " + name, () -> api.deleteNode(name).buildCall(null));
      removed++;
    }
    for (V1Namespace namespace : call("listing leftover test namespaces", () -> api.listNamespace()
        .labelSelector(Conventions.TEST_NAMESPACE_LABEL + "=true").execute()).getItems()) {
      String name = namespace.getMetadata().getName();
      if (namespace.getMetadata().getDeletionTimestamp() == null) {
        deleteIgnoringMissing("deleting pods of leftover test namespace " + name,
            () -> api.deleteCollectionNamespacedPod(name).gracePeriodSeconds(0).buildCall(null));
        deleteIgnoringMissing("deleting leftover test namespace " + name, () -> api.deleteNamespace(name).buildCall(null));
        removed++;
      }
    }
    return removed;
  }
}

package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * What one test method got from the harness, made on first request and cleaned up after the test in a
 * fixed order: pods on the test's nodes go at once (grace 0, e.g. reservation pods in other namespaces),
 * then the nodes, then the namespace.
 */
final class KubernetesTestSession implements AutoCloseable {

  private final ControlPlane controlPlane;
  private final String testName;
  private TestNamespace namespace;
  private FakeGpuNodes nodes;

  KubernetesTestSession(ControlPlane controlPlane, String testName) {
    this.controlPlane = controlPlane;
    this.testName = testName;
  }

  synchronized TestNamespace namespace() {
    if (namespace == null) {
      namespace = TestNamespace.create(controlPlane.apiClient(), controlPlane.serverMinorVersion(), testName);
    }
    return namespace;
  }

  synchronized FakeGpuNodes nodes() {
    if (nodes == null) {
      nodes = new FakeGpuNodes(controlPlane.apiClient());
    }
    return nodes;
  }

  @Override
  public synchronized void close() {
    List<RuntimeException> failures = new ArrayList<>();
    runCollecting(failures, () -> {
      if (nodes != null) {
        nodes.created().forEach(node -> removePodsOn(node.name()));
        nodes.close();
      }
    });
    runCollecting(failures, () -> {
      if (namespace != null) {
        namespace.close();
      }
    });
    if (!failures.isEmpty()) {
      IllegalStateException failure = new IllegalStateException("cleaning up after " + testName + " failed");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  /** Pods of any namespace on the node (e.g. reservation pods in quotient-system). */
  private void removePodsOn(String nodeName) {
    CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
    List<V1Pod> pods = call("listing pods on node " + nodeName,
        () -> api.listPodForAllNamespaces().fieldSelector("spec.nodeName=" + nodeName).execute()).getItems();
    for (V1Pod pod : pods) {
      String name = pod.getMetadata().getName();
      String podNamespace = pod.getMetadata().getNamespace();
      deleteIgnoringMissing("deleting pod " + podNamespace + "/" + name + " of fake node " + nodeName,
          () -> api.deleteNamespacedPod(name, podNamespace).gracePeriodSeconds(0).buildCall(null));
    }
  }

  private static void runCollecting(List<RuntimeException> failures, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }
}

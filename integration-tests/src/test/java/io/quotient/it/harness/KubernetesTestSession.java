package io.quotient.it.harness;

import io.kubernetes.client.openapi.apis.CoreV1Api;
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
                CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
                nodes.created().forEach(node -> FakeGpuNodes.deletePodsOn(api, node.name()));
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

    private static void runCollecting(List<RuntimeException> failures, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }
}

package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.TestNamespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The set-up the adapter tests share: the GpuJob CRD installed once, and per test the store, observer and gateway
 * wired by hand ({@link AdapterFixture}) on the test's namespace of the real control plane.
 */
abstract class AdaptersOnRealPlane {

    ControlPlane plane;
    TestNamespace namespace;
    FakeGpuNodes nodes;
    AdapterFixture adapters;
    CoreV1Api core;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @BeforeEach
    void setUp(ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet) {
        this.plane = plane;
        this.namespace = namespace;
        this.nodes = nodes;
        adapters = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name());
        core = new CoreV1Api(plane.apiClient());
    }

    @AfterEach
    void tearDown() {
        adapters.close();
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The service reads the usage counters of the node reports on a real API server, and only for pods it sees itself
 * on that node as a job's workload: a report that names a pod with another UID, a pod on another node, or a pod of
 * no job books nothing.
 */
@RealKubernetes
class UsageObservationIT {

    private static final JobId NOTEBOOK = new JobId("vision", "notebook");
    private static final String MANAGED = "app.kubernetes.io/managed-by";

    private ApiClient client;
    private TestNamespace namespace;
    private AdapterFixture adapters;
    private CoreV1Api core;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @BeforeEach
    void setUp(ControlPlane plane, TestNamespace namespace) {
        this.client = plane.apiClient();
        this.namespace = namespace;
        adapters = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name());
        core = new CoreV1Api(client);
    }

    @AfterEach
    void tearDown() {
        adapters.close();
    }

    @Test
    void onlyPodsTheServiceSeesOnTheReportingNodeBookUsage(FakeGpuNodes nodes) throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("usage", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        FakeGpuNode other = nodes.create(FakeGpuNodeSpec.of("usage-other", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        // the service watches the pods it manages (its label), and knows their jobs by their team and job labels
        V1Pod notebook = pod(
                "notebook-0",
                node.name(),
                Map.of(MANAGED, "quotient", "quotient.io/team", NOTEBOOK.team(), "quotient.io/job", NOTEBOOK.name()));
        V1Pod stray = pod("stray-0", node.name(), Map.of(MANAGED, "quotient"));
        String gpu = node.gpuUuids().get(0);
        String since = "2026-12-01T10:00:00Z";

        report(
                node.name(),
                List.of(
                        podUsage("notebook-0", notebook.getMetadata().getUid(), gpu, since, 600, 240),
                        podUsage("notebook-0", "forged-uid", gpu, since, 600, 600),
                        podUsage("stray-0", stray.getMetadata().getUid(), gpu, since, 600, 600)));
        report(
                other.name(),
                List.of(podUsage(
                        "notebook-0",
                        notebook.getMetadata().getUid(),
                        other.gpuUuids().get(0),
                        since,
                        600,
                        600)));

        List<PodCounterReading> readings = Await.until(
                "the node reports' usage to be observed", () -> adapters.observer.podUsage(), r -> !r.isEmpty());

        assertThat(readings)
                .containsExactly(new PodCounterReading(
                        node.name(),
                        notebook.getMetadata().getUid(),
                        gpu,
                        NOTEBOOK,
                        new PodCounters(Instant.parse(since), 600, 600, 240, 600.0 * 1024)));
    }

    private V1Pod pod(String name, String nodeName, Map<String, String> labels) throws Exception {
        V1Pod pod = new V1Pod()
                .metadata(new V1ObjectMeta()
                        .name(name)
                        .namespace(namespace.name())
                        .labels(labels))
                .spec(new V1PodSpec()
                        .overhead(null)
                        .nodeName(nodeName)
                        .containers(List.of(new V1Container()
                                .name("main")
                                .image("busybox:1.36")
                                .command(List.of("sleep", "3600")))));
        return core.createNamespacedPod(namespace.name(), pod).execute();
    }

    private JsonObject podUsage(String name, String uid, String gpu, String since, double seconds, double busy) {
        return NodeReports.pod(
                namespace.name(),
                name,
                uid,
                List.of(new NodeReports.GpuCounters(gpu, Instant.parse(since), 30.0, 40.0, seconds, busy, 1024)));
    }

    /** Adds a usage object to the node's report, as its enforcer would (the fake kubelet keeps it fresh). */
    private void report(String nodeName, List<JsonObject> pods) {
        NodeReports.writeUsage(
                client, nodeName, Instant.parse("2026-12-01T10:09:30Z"), Instant.parse("2026-12-01T10:10:00Z"), pods);
    }
}

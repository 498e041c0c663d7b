package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;
import static io.quotient.it.harness.KubeCalls.retryOnConflict;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeAddress;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1NodeSystemInfo;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Taint;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Creates Ready GPU nodes without kubelets (the Java twin of {@code bin/fake-gpu-node}) and deletes them
 * when the test ends. Each node gets a unique name, {@code nvidia.com/gpu} capacity, GPU-feature-discovery
 * labels, a ready {@code quotient.io/gpu-report} and no not-ready taint, so the real scheduler binds to it.
 */
public final class FakeGpuNodes implements AutoCloseable {

    private static final String KUBELET_VERSION = "v1.20.2";
    private static final String MAX_PODS = "110";

    private final CoreV1Api api;
    private final List<FakeGpuNode> created = new ArrayList<>();

    public FakeGpuNodes(ApiClient client) {
        this.api = new CoreV1Api(client);
    }

    /** Creates a node named {@code <prefix>-<random>} and returns it once it is schedulable. */
    public synchronized FakeGpuNode create(FakeGpuNodeSpec spec) {
        String name = RandomNames.withSuffix(spec.namePrefix());
        Instant now = Instant.now();
        V1Node node = new V1Node()
                .metadata(new V1ObjectMeta()
                        .name(name)
                        .labels(Map.of(
                                Conventions.HOSTNAME_LABEL,
                                name,
                                "kubernetes.io/os",
                                "linux",
                                "kubernetes.io/arch",
                                "amd64",
                                Conventions.GPU_COUNT_LABEL,
                                Integer.toString(spec.gpus()),
                                Conventions.GPU_MEMORY_LABEL,
                                Long.toString(spec.gpuMemoryMib()),
                                Conventions.GPU_PRODUCT_LABEL,
                                spec.model(),
                                Conventions.FAKE_NODE_LABEL,
                                "true"))
                        .annotations(Map.of(
                                Conventions.GPU_REPORT_ANNOTATION, FakeGpuReports.readyReport(name, spec, now))));
        call("creating fake GPU node " + name, () -> api.createNode(node).execute());
        FakeGpuNode fake = new FakeGpuNode(name, spec, FakeGpuReports.gpuUuids(name, spec.gpus()));
        created.add(fake);
        retryOnConflict("setting the status of fake node " + name, () -> {
            V1Node current = api.readNode(name).execute();
            current.setStatus(readyStatus(name, spec, now));
            return api.replaceNodeStatus(name, current).execute();
        });
        // Admission tainted the node not-ready at creation; no kubelet will ever lift it.
        retryOnConflict("removing the not-ready taint of fake node " + name, () -> {
            V1Node current = api.readNode(name).execute();
            List<V1Taint> taints = current.getSpec().getTaints() == null
                    ? List.of()
                    : current.getSpec().getTaints();
            current.getSpec()
                    .setTaints(taints.stream()
                            .filter(t -> !Conventions.NOT_READY_TAINT.equals(t.getKey()))
                            .toList());
            return api.replaceNode(name, current).execute();
        });
        return fake;
    }

    /** The nodes this fixture made and has not deleted yet. */
    public synchronized List<FakeGpuNode> created() {
        return List.copyOf(created);
    }

    /** Deletes one node now (e.g. to test a node going away). */
    public synchronized void delete(String name) {
        deleteIgnoringMissing(
                "deleting fake node " + name, () -> api.deleteNode(name).buildCall(null));
        created.removeIf(node -> node.name().equals(name));
    }

    /**
     * Deletes every pod bound to the node, of any namespace (e.g. reservation pods in quotient-system), at once
     * (grace 0): no kubelet would finish a graceful deletion once the node is gone.
     */
    static void deletePodsOn(CoreV1Api api, String nodeName) {
        List<V1Pod> pods = call(
                        "listing pods on node " + nodeName,
                        () -> api.listPodForAllNamespaces()
                                .fieldSelector("spec.nodeName=" + nodeName)
                                .execute())
                .getItems();
        for (V1Pod pod : pods) {
            String name = pod.getMetadata().getName();
            String namespace = pod.getMetadata().getNamespace();
            deleteIgnoringMissing(
                    "deleting pod " + namespace + "/" + name + " of fake node " + nodeName,
                    () -> api.deleteNamespacedPod(name, namespace)
                            .gracePeriodSeconds(0)
                            .buildCall(null));
        }
    }

    @Override
    public synchronized void close() {
        for (FakeGpuNode node : List.copyOf(created)) {
            delete(node.name());
        }
    }

    private static V1NodeStatus readyStatus(String name, FakeGpuNodeSpec spec, Instant now) {
        Map<String, Quantity> resources = Map.of(
                "cpu",
                new Quantity(Integer.toString(spec.cpu())),
                "memory",
                new Quantity(spec.memoryMib() + "Mi"),
                "pods",
                new Quantity(MAX_PODS),
                Conventions.GPU_RESOURCE,
                new Quantity(Integer.toString(spec.gpus())));
        OffsetDateTime time = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        return new V1NodeStatus()
                .capacity(resources)
                .allocatable(resources)
                .conditions(List.of(new V1NodeCondition()
                        .type("Ready")
                        .status("True")
                        .reason("KubeletReady")
                        .message("fake kubelet of the Quotient test harness")
                        .lastHeartbeatTime(time)
                        .lastTransitionTime(time)))
                .addresses(List.of(new V1NodeAddress().type("Hostname").address(name)))
                .nodeInfo(new V1NodeSystemInfo()
                        .kubeletVersion(KUBELET_VERSION)
                        .kubeProxyVersion(KUBELET_VERSION)
                        .containerRuntimeVersion("fake://1.0")
                        .operatingSystem("linux")
                        .architecture("amd64")
                        .osImage("fake")
                        .kernelVersion("fake")
                        .machineID("")
                        .systemUUID("")
                        .bootID(""));
    }
}

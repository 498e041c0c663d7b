package io.quotient.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.Conventions;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fake kubelet runs, finishes and deletes pods on fake nodes, and plays the device plugin. */
@RealKubernetes
class FakeKubeletIT {

    private static final FakeGpuNodeSpec A100 = FakeGpuNodeSpec.of("kubelet", 2, 81_559, "NVIDIA-A100-SXM4-80GB");

    @Test
    void jobPodRunsAndItsSuccessCompletesTheJob(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet) throws ApiException {
        FakeGpuNode node = nodes.create(A100);
        new BatchV1Api(client)
                .createNamespacedJob(namespace.name(), Workloads.gpuJob("etl", 1, node.name()))
                .execute();

        V1Pod running = Await.until(
                "the job's pod to run",
                () -> SchedulingIT.podsOfJob(client, namespace, "etl").stream()
                        .filter(p -> "Running".equals(p.getStatus().getPhase()))
                        .findFirst()
                        .orElse(null));
        assertThat(running.getStatus().getPodIP()).isNotBlank();
        assertThat(running.getStatus().getContainerStatuses()).singleElement().satisfies(status -> {
            assertThat(status.getContainerID()).startsWith("containerd://");
            assertThat(status.getReady()).isTrue();
            assertThat(status.getState().getRunning()).isNotNull();
        });

        V1Pod succeeded =
                kubelet.succeed(namespace.name(), running.getMetadata().getName());

        assertThat(succeeded.getStatus().getPhase()).isEqualTo("Succeeded");
        V1Job job = Await.until(
                "the job controller to count the success",
                () -> new BatchV1Api(client)
                        .readNamespacedJob("etl", namespace.name())
                        .execute(),
                j -> j.getStatus() != null
                        && Integer.valueOf(1).equals(j.getStatus().getSucceeded()));
        assertThat(job.getStatus().getCompletionTime()).isNotNull();
    }

    @Test
    void failedPodCarriesTheExitCode(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet)
            throws ApiException {
        CoreV1Api api = new CoreV1Api(client);
        runOneGpuPod(api, namespace, nodes.create(A100), "crashes");

        kubelet.fail(namespace.name(), "crashes", 3);

        V1Pod failed = awaitPhase(api, namespace, "crashes", "Failed");
        V1ContainerStatus main = failed.getStatus().getContainerStatuses().get(0);
        assertThat(main.getState().getTerminated().getExitCode()).isEqualTo(3);
        assertThat(main.getState().getTerminated().getReason()).isEqualTo("Error");
    }

    @Test
    void deletedPodIsRemovedInsteadOfStayingTerminating(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes)
            throws ApiException {
        CoreV1Api api = new CoreV1Api(client);
        runOneGpuPod(api, namespace, nodes.create(A100), "short-lived");

        api.deleteNamespacedPod("short-lived", namespace.name()).execute();

        Await.until(
                "pod short-lived to be gone",
                () -> api.listNamespacedPod(namespace.name())
                        .fieldSelector("metadata.name=short-lived")
                        .execute()
                        .getItems(),
                pods -> pods.isEmpty());
    }

    @Test
    void reservationPodsGetDistinctGpusOfTheirNodeHonouringTheRequestedIndex(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes) throws ApiException {
        FakeGpuNode node = nodes.create(A100);
        CoreV1Api api = new CoreV1Api(client);
        api.createNamespacedPod(namespace.name(), reservationPod(node, 1)).execute();
        api.createNamespacedPod(namespace.name(), reservationPod(node, 0)).execute();

        String second = awaitGpuUuid(api, namespace, node, 1);
        String first = awaitGpuUuid(api, namespace, node, 0);

        assertThat(second).isEqualTo(node.gpuUuids().get(1));
        assertThat(first).isEqualTo(node.gpuUuids().get(0));
        assertThat(awaitPhase(api, namespace, reservationName(node, 1), "Running")
                        .getSpec()
                        .getNodeName())
                .isEqualTo(node.name());
    }

    @Test
    void wholeGpuPodsNeverShareAGpuWithAReservation(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes)
            throws ApiException {
        FakeGpuNode node = nodes.create(A100);
        CoreV1Api api = new CoreV1Api(client);
        runOneGpuPod(api, namespace, node, "whole");
        // The whole-GPU pod got GPU 0 (the first free one); the reservation asks for 0 but must get GPU 1.
        api.createNamespacedPod(namespace.name(), reservationPod(node, 0)).execute();

        String reserved = awaitGpuUuid(api, namespace, node, 0);

        assertThat(reserved).isEqualTo(node.gpuUuids().get(1));
    }

    private static V1Pod reservationPod(FakeGpuNode node, int gpuIndex) {
        V1Pod pod = Workloads.gpuPod(reservationName(node, gpuIndex), 1, node.name());
        return pod.metadata(new V1ObjectMeta()
                .name(reservationName(node, gpuIndex))
                .labels(Map.of(
                        Conventions.ROLE_LABEL,
                        Conventions.RESERVATION_ROLE,
                        "quotient.io/node",
                        node.name(),
                        Conventions.GPU_INDEX_LABEL,
                        Integer.toString(gpuIndex))));
    }

    private static String reservationName(FakeGpuNode node, int gpuIndex) {
        return "quotient-reservation-" + node.name() + "-" + gpuIndex;
    }

    private static String awaitGpuUuid(CoreV1Api api, TestNamespace namespace, FakeGpuNode node, int gpuIndex) {
        return Await.until(
                "reservation pod for GPU " + gpuIndex + " of " + node.name() + " to get its GPU UUID", () -> {
                    Map<String, String> annotations = api.readNamespacedPod(
                                    reservationName(node, gpuIndex), namespace.name())
                            .execute()
                            .getMetadata()
                            .getAnnotations();
                    return annotations == null ? null : annotations.get(Conventions.GPU_UUID_ANNOTATION);
                });
    }

    private static void runOneGpuPod(CoreV1Api api, TestNamespace namespace, FakeGpuNode node, String pod)
            throws ApiException {
        api.createNamespacedPod(namespace.name(), Workloads.gpuPod(pod, 1, node.name()))
                .execute();
        awaitPhase(api, namespace, pod, "Running");
    }

    static V1Pod awaitPhase(CoreV1Api api, TestNamespace namespace, String pod, String phase) {
        return Await.until(
                "pod " + pod + " to be " + phase,
                () -> api.readNamespacedPod(pod, namespace.name()).execute(),
                p -> phase.equals(p.getStatus().getPhase()));
    }
}

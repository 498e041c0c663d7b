package io.quotient.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The real job controller and kube-scheduler working on fake GPU nodes. */
@RealKubernetes
class SchedulingIT {

    @Test
    void jobControllerCreatesThePodAndTheSchedulerBindsItToTheRequiredNode(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes) throws ApiException {
        FakeGpuNode a100 = nodes.create(FakeGpuNodeSpec.of("a100", 4, 81_559, "NVIDIA-A100-SXM4-80GB"));
        FakeGpuNode other = nodes.create(FakeGpuNodeSpec.of("a100", 4, 81_559, "NVIDIA-A100-SXM4-80GB"));

        V1Job job = new BatchV1Api(client)
                .createNamespacedJob(namespace.name(), Workloads.gpuJob("train", 2, other.name()))
                .execute();

        V1Pod pod = Await.until(
                "the job's pod to be bound to a node",
                () -> podsOfJob(client, namespace, "train").stream()
                        .filter(p -> p.getSpec().getNodeName() != null)
                        .findFirst()
                        .orElse(null));
        assertThat(pod.getSpec().getNodeName()).isEqualTo(other.name()).isNotEqualTo(a100.name());
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Job");
            assertThat(owner.getUid()).isEqualTo(job.getMetadata().getUid());
        });
        assertThat(scheduledCondition(pod))
                .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
    }

    @Test
    void podThatDoesNotFitTheGpuCapacityStaysPendingWithTheSchedulersReason(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes) throws ApiException {
        nodes.create(FakeGpuNodeSpec.of("t4", 2, 15_360, "Tesla-T4"));
        nodes.create(FakeGpuNodeSpec.of("t4", 2, 15_360, "Tesla-T4"));
        CoreV1Api api = new CoreV1Api(client);

        api.createNamespacedPod(namespace.name(), Workloads.gpuPod("too-big", 4, null))
                .execute();

        V1PodCondition scheduled = Await.until(
                "the scheduler to give up on pod too-big",
                () -> scheduledCondition(api.readNamespacedPod("too-big", namespace.name())
                                .execute())
                        .orElse(null));
        assertThat(scheduled.getStatus()).isEqualTo("False");
        assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
        assertThat(scheduled.getMessage()).contains("Insufficient nvidia.com/gpu");
        V1Pod pod = api.readNamespacedPod("too-big", namespace.name()).execute();
        assertThat(pod.getSpec().getNodeName()).isNull();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    }

    @Test
    void podThatFitsIsBoundOnlyToANodeWithEnoughFreeGpus(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes)
            throws ApiException {
        nodes.create(FakeGpuNodeSpec.of("small", 1, 15_360, "Tesla-T4"));
        FakeGpuNode big = nodes.create(FakeGpuNodeSpec.of("big", 8, 81_559, "NVIDIA-H100-80GB-HBM3"));
        CoreV1Api api = new CoreV1Api(client);

        api.createNamespacedPod(namespace.name(), Workloads.gpuPod("needs-eight", 8, null))
                .execute();

        V1Pod pod = Await.until(
                "pod needs-eight to be bound",
                () -> api.readNamespacedPod("needs-eight", namespace.name()).execute(),
                p -> p.getSpec().getNodeName() != null);
        assertThat(pod.getSpec().getNodeName()).isEqualTo(big.name());
    }

    static List<V1Pod> podsOfJob(ApiClient client, TestNamespace namespace, String jobName) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace.name())
                .labelSelector("job-name=" + jobName)
                .execute()
                .getItems();
    }

    static Optional<V1PodCondition> scheduledCondition(V1Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst();
    }
}

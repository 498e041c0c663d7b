package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadPhase;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.RealKubernetes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The workload gateway against the real API server, scheduler and controllers: pinned Jobs created once and bound
 * where placed, replaced when placed elsewhere, reservation pods, fractional GPUs by UUID, and Events on the GpuJob.
 */
@RealKubernetes
class WorkloadGatewayIT extends AdaptersOnRealPlane {

    @Test
    void gatewayCreatesThePinnedJobOnceAndTheRealSchedulerBindsItThere() throws Exception {
        FakeGpuNode target = nodes.create(FakeGpuNodeSpec.of("gw", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        nodes.create(FakeGpuNodeSpec.of("gw-other", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Await.until(
                "the observer to list " + target.name(),
                () -> adapters.observer.node(target.name()).orElse(null));
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "pinned", 3));
        PlacedJob placement = new PlacedJob(
                record.spec(), target.name(), List.of(0, 1, 2), 1000, QuotaState.OVER_QUOTA, Instant.now());
        List<GpuBinding> gpus =
                List.of(new GpuBinding(0, null, 1), new GpuBinding(1, null, 1), new GpuBinding(2, null, 1));

        adapters.gateway.deploy(record, placement, gpus);
        V1Pod pod = awaitBoundPod(record);

        assertThat(pod.getSpec().getNodeName()).isEqualTo(target.name());
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/job", "pinned")
                .containsEntry("quotient.io/quota-state", "OverQuota");
        assertThat(pod.getSpec()
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .getNumber())
                .isEqualByComparingTo("3");
        V1Job job = readJob(record);
        adapters.gateway.deploy(record, placement, gpus);
        adapters.gateway.awaitQueuedWrites();
        assertThat(readJob(record).getMetadata().getUid())
                .isEqualTo(job.getMetadata().getUid());
        assertThat(job.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getKind()).isEqualTo("GpuJob"));
        Await.until(
                "the observer to see the workload run",
                () -> adapters.observer.workload(record.id()),
                phase -> phase == WorkloadPhase.RUNNING);

        adapters.gateway.stop(record.id(), Duration.ofSeconds(30));

        Await.until(
                "the Job and its pods to be gone",
                () -> podsOf(record).getItems().size()
                        + new BatchV1Api(plane.apiClient())
                                .listNamespacedJob(namespace.name())
                                .execute()
                                .getItems()
                                .size(),
                count -> count == 0);
        Await.until(
                "the observer to see no workload",
                () -> adapters.observer.workload(record.id()),
                phase -> phase == WorkloadPhase.ABSENT);
    }

    @Test
    void gatewayReplacesAWorkloadRenderedForAnotherPlacement() throws Exception {
        FakeGpuNode first = nodes.create(FakeGpuNodeSpec.of("mv-a", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        FakeGpuNode second = nodes.create(FakeGpuNodeSpec.of("mv-b", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "moved", 1));
        List<GpuBinding> gpu = List.of(new GpuBinding(0, null, 1));

        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), first.name(), List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                gpu);
        adapters.gateway.awaitQueuedWrites();
        String firstUid = readJob(record).getMetadata().getUid();
        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), second.name(), List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                gpu);
        adapters.gateway.awaitQueuedWrites();

        V1Job replaced = readJob(record);
        assertThat(replaced.getMetadata().getUid()).isNotEqualTo(firstUid);
        Await.until(
                "a pod of the new Job bound to " + second.name(),
                () -> podsOf(record).getItems().stream()
                        .filter(p -> second.name().equals(p.getSpec().getNodeName()))
                        .findFirst()
                        .orElse(null));
    }

    @Test
    void reservationPodHoldsTheGpuAndReportsTheUuidTheEnforcerWrites() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("resv", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        GpuSlot slot = new GpuSlot(node.name(), 1);

        assertThat(adapters.gateway.ensureReservation(slot)).isEmpty();
        assertThat(adapters.gateway.ensureReservation(slot)).isEmpty(); // idempotent: one pod
        String podName = KubernetesNames.ofReservation(slot);
        V1Pod pod = Await.until(
                "the reservation pod to run",
                () -> core.readNamespacedPod(podName, namespace.name()).execute(),
                p -> "Running".equals(p.getStatus().getPhase()));
        assertThat(pod.getSpec().getNodeName()).isEqualTo(node.name());

        // the fake kubelet plays the device plugin and the node enforcer: it annotates the GPU it gave the pod
        String uuid = Await.until(
                "the enforcer to report the reserved GPU",
                () -> adapters.gateway.ensureReservation(slot),
                reported -> !reported.isEmpty());
        assertThat(node.gpuUuids()).contains(uuid);
        assertThat(adapters.observer.reservations()).containsEntry(slot, uuid);

        adapters.gateway.releaseReservation(slot);
        Await.until("the reservation to be gone", () -> adapters.observer.reservations(), r -> !r.containsKey(slot));
        adapters.gateway.releaseReservation(slot); // nothing left: no error
    }

    @Test
    void fractionalJobIsBoundToTheReservedGpuUuid() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("frac", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        Await.until(
                "the observer to list " + node.name(),
                () -> adapters.observer.node(node.name()).orElse(null));
        JobRecord record = adapters.store.create(AdapterFixture.fractionRecord("team-a", "small", 0.25));
        String uuid = node.gpuUuids().get(0);

        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), node.name(), List.of(0), 250, QuotaState.IN_QUOTA, Instant.now()),
                List.of(new GpuBinding(0, uuid, 0.25)));

        V1Pod pod = awaitBoundPod(record);
        var env = pod.getSpec().getContainers().get(0).getEnv();
        assertThat(env).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("NVIDIA_VISIBLE_DEVICES");
            assertThat(e.getValue()).isEqualTo(uuid);
        });
        assertThat(env).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("GPU_MEMORY_LIMIT");
            assertThat(e.getValue()).isEqualTo(Long.toString(81920L * 1024 * 1024 / 4));
        });
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("gpu-fraction", "0.25");
        assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits())
                .doesNotContainKey("nvidia.com/gpu");
    }

    @Test
    void eventsAreRecordedOnTheGpuJob() throws Exception {
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "evented", 1));

        adapters.gateway.recordEvent(record.id(), "Preempted", "Preempted by team-b reclaiming its guarantee");

        CoreV1Event event = Await.until(
                "the event",
                () -> core.listNamespacedEvent(namespace.name()).execute().getItems().stream()
                        .filter(e -> "Preempted".equals(e.getReason()))
                        .findFirst()
                        .orElse(null));
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("GpuJob");
        assertThat(event.getInvolvedObject().getName()).isEqualTo(KubernetesNames.ofJob(record.id()));
        assertThat(event.getInvolvedObject().getUid()).isNotBlank();
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getMessage()).isEqualTo("Preempted by team-b reclaiming its guarantee");
    }

    private V1Pod awaitBoundPod(JobRecord record) {
        return Await.until(
                "a pod of job " + record.id() + " bound by the scheduler",
                () -> podsOf(record).getItems().stream()
                        .filter(p -> p.getSpec().getNodeName() != null)
                        .findFirst()
                        .orElse(null));
    }

    private V1PodList podsOf(JobRecord record) throws ApiException {
        return core.listNamespacedPod(namespace.name())
                .labelSelector("quotient.io/job=" + record.id().name())
                .execute();
    }

    private V1Job readJob(JobRecord record) {
        try {
            return new BatchV1Api(plane.apiClient())
                    .readNamespacedJob(KubernetesNames.ofWorkload(record.id()), namespace.name())
                    .execute();
        } catch (ApiException e) {
            throw new AssertionError("reading the Job of " + record.id() + ": HTTP " + e.getCode(), e);
        }
    }
}

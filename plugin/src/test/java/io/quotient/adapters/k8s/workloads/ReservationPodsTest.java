package io.quotient.adapters.k8s.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.adapters.k8s.K8sFixtures;
import io.quotient.deploy.port.GpuSlot;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReservationPodsTest {

    @Test
    void reservationHoldsOneWholeGpuPinnedToItsNodeWithTheConventionsLabels() {
        V1Pod pod = ReservationPods.build(new GpuSlot("gpu-node-3", 5), "quotient-system");

        assertThat(pod.getMetadata().getName()).isEqualTo("quotient-reservation-gpu-node-3-5");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("quotient-system");
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("quotient.io/role", "gpu-reservation")
                .containsEntry("quotient.io/node", "gpu-node-3")
                .containsEntry("quotient.io/gpu-index", "5");
        var container = pod.getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("registry.k8s.io/pause:3.9");
        assertThat(container
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .getNumber()
                        .intValue())
                .isEqualTo(1);
        assertThat(container
                        .getResources()
                        .getRequests()
                        .get("nvidia.com/gpu")
                        .getNumber()
                        .intValue())
                .isEqualTo(1);
        var expression = pod.getSpec()
                .getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions()
                .get(0);
        assertThat(expression.getKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(expression.getValues()).isEqualTo(List.of("gpu-node-3"));
    }

    @Test
    void slotAndUuidAreReadBackFromThePod() {
        String longNode = "n".repeat(70);
        V1Pod pod = ReservationPods.build(new GpuSlot(longNode, 2), "ns");

        assertThat(ReservationPods.slot(pod)).contains(new GpuSlot(longNode, 2));
        assertThat(ReservationPods.uuid(pod)).isEmpty();
        pod.getMetadata().putAnnotationsItem("quotient.io/gpu-uuid", "GPU-123");
        assertThat(ReservationPods.uuid(pod)).isEqualTo("GPU-123");
        assertThat(ReservationPods.slot(K8sFixtures.jobPod("t", "j", "Running")))
                .isEmpty();
    }
}

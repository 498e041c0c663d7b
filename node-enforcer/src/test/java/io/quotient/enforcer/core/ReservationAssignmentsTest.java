package io.quotient.enforcer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReservationAssignmentsTest {

    private static PodInfo pod(
            String namespace, String name, Map<String, String> labels, Map<String, String> annotations) {
        return new PodInfo(
                "uid-" + name,
                namespace,
                name,
                labels,
                annotations,
                List.of(new ContainerInfo("hold", "c-" + name, Map.of(), false)));
    }

    private static PodInfo reservation(String name, Map<String, String> annotations) {
        return pod(
                "quotient-system",
                name,
                Map.of(ReservationAssignments.ROLE_LABEL, ReservationAssignments.ROLE),
                annotations);
    }

    private static DeviceAllocation gpu(String namespace, String pod, String... ids) {
        return new DeviceAllocation(namespace, pod, "hold", ReservationAssignments.GPU_RESOURCE, List.of(ids));
    }

    @Test
    void aReservationPodWithoutTheAnnotationGetsTheUuidTheKubeletGaveIt() {
        List<ReservationAssignments.Assignment> pending = ReservationAssignments.pending(
                List.of(gpu("quotient-system", "quotient-reservation-node-a-0", "GPU-aaa")),
                List.of(reservation("quotient-reservation-node-a-0", Map.of())));

        assertThat(pending)
                .containsExactly(new ReservationAssignments.Assignment(
                        "quotient-system", "quotient-reservation-node-a-0", "GPU-aaa"));
    }

    @Test
    void aTimeSlicedReplicaNamesItsPhysicalGpu() {
        List<ReservationAssignments.Assignment> pending = ReservationAssignments.pending(
                List.of(gpu("quotient-system", "r0", "GPU-bbb::3")), List.of(reservation("r0", Map.of())));

        assertThat(pending)
                .extracting(ReservationAssignments.Assignment::gpuUuid)
                .containsExactly("GPU-bbb");
    }

    @Test
    void correctAnnotationsOtherPodsAndOtherResourcesAreLeftAlone() {
        List<PodInfo> pods = List.of(
                reservation("done", Map.of(ReservationAssignments.UUID_ANNOTATION, "GPU-ccc")),
                reservation("wrong", Map.of(ReservationAssignments.UUID_ANNOTATION, "GPU-old")),
                pod("team-a", "train", Map.of(), Map.of()));
        List<DeviceAllocation> allocations = List.of(
                gpu("quotient-system", "done", "GPU-ccc"),
                gpu("quotient-system", "wrong", "GPU-new"),
                gpu("team-a", "train", "GPU-ddd"),
                new DeviceAllocation("quotient-system", "done", "hold", "example.com/fpga", List.of("fpga-0")),
                gpu("quotient-system", "unknown-pod", "GPU-eee"));

        assertThat(ReservationAssignments.pending(allocations, pods))
                .containsExactly(new ReservationAssignments.Assignment("quotient-system", "wrong", "GPU-new"));
    }
}

package io.quotient.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The harness's fake GPU bookkeeping, without a cluster. */
class FakeGpusTest {

    private static final List<String> GPUS = FakeGpuReports.gpuUuids("node-a", 3);

    @Test
    void uuidsFollowTheSchemeOfTheFakeGpuNodeScript() {
        // Value printed by bin/fake-gpu-node for node gpu-a, GPU 0 (md5 name-based UUID of "gpu-a/0").
        assertThat(FakeGpuReports.gpuUuid("gpu-a", 0)).isEqualTo("GPU-604bb432-59ff-330f-ae85-c37697c069e8");
        assertThat(Set.copyOf(GPUS)).hasSize(3);
    }

    @Test
    void reportListsEveryGpuAndRefreshKeepsEverythingButTheTime() {
        FakeGpuNodeSpec spec = FakeGpuNodeSpec.of("node", 3, 81_559, "NVIDIA-A100-SXM4-80GB");
        String report = FakeGpuReports.readyReport("node-a", spec, Instant.parse("2025-01-01T00:00:00Z"));

        String refreshed = FakeGpuReports.refreshed(report, Instant.parse("2025-01-01T00:01:00Z"));

        assertThat(FakeGpuReports.uuidsIn(report)).isEqualTo(GPUS);
        assertThat(FakeGpuReports.uuidsIn(refreshed)).isEqualTo(GPUS);
        assertThat(FakeGpuReports.updatedAt(refreshed)).isEqualTo(Instant.parse("2025-01-01T00:01:00Z"));
        assertThat(refreshed).contains("\"ready\":true", "\"memoryTotalMib\":81559");
    }

    @Test
    void reservationGetsTheGpuOfItsIndexWhenFree() {
        FakeDevicePlugin plugin = new FakeDevicePlugin();

        Optional<List<String>> gpus = plugin.allocate(reservation("r2", 2, null), GPUS, List.of());

        assertThat(gpus).contains(List.of(GPUS.get(2)));
    }

    @Test
    void gpusHeldByReservationsOrWholeGpuPodsAreNeverHandedOutTwice() {
        FakeDevicePlugin plugin = new FakeDevicePlugin();
        V1Pod whole = gpuPod("whole", 1, Map.of());
        V1Pod held = reservation("r0", 1, GPUS.get(1));
        assertThat(plugin.allocate(whole, GPUS, List.of(held))).contains(List.of(GPUS.get(0)));

        Optional<List<String>> next = plugin.allocate(reservation("r1", 1, null), GPUS, List.of(whole, held));

        assertThat(next).contains(List.of(GPUS.get(2)));
        assertThat(plugin.allocate(
                        gpuPod("late", 1, Map.of()), GPUS, List.of(whole, held, reservation("r2", 0, GPUS.get(2)))))
                .isEmpty();
    }

    @Test
    void aReservationsGpuStaysTakenBeforeItsAnnotationIsSeen() {
        FakeDevicePlugin plugin = new FakeDevicePlugin();
        V1Pod first = reservation("r0", 0, null);
        assertThat(plugin.allocate(first, GPUS, List.of())).contains(List.of(GPUS.get(0)));

        // the kubelet's cache still shows the first reservation without its annotation
        Optional<List<String>> second = plugin.allocate(reservation("r0-again", 0, null), GPUS, List.of(first));

        assertThat(second).contains(List.of(GPUS.get(1)));
    }

    @Test
    void gpusOfFinishedPodsAreFreedAgain() {
        FakeDevicePlugin plugin = new FakeDevicePlugin();
        V1Pod first = gpuPod("first", 3, Map.of());
        assertThat(plugin.allocate(first, GPUS, List.of())).contains(GPUS);

        plugin.keepOnly(Set.of());

        assertThat(plugin.allocate(gpuPod("second", 2, Map.of()), GPUS, List.of()))
                .contains(GPUS.subList(0, 2));
    }

    @Test
    void badNodeSpecsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> FakeGpuNodeSpec.of("Bad_Name", 1, 1, "T4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lower-case");
        assertThatThrownBy(() -> FakeGpuNodeSpec.of("node", 1, 1, "Tesla T4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a label value");
        assertThatThrownBy(() -> FakeGpuNodeSpec.of("node", -1, 1, "T4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gpus must be >= 0");
    }

    @Test
    void namesFromTestMethodsAreValidDnsLabels() {
        String name = RandomNames.withSuffix(RandomNames.dnsLabel("podThatFits(ApiClient)"));
        String longName = RandomNames.withSuffix(RandomNames.dnsLabel("x".repeat(39) + "-tail"));

        assertThat(name).matches("podthatfits-apiclient-[a-z0-9]{5}");
        assertThat(longName).matches("x{39}-[a-z0-9]{5}");
        assertThat(RandomNames.dnsLabel("___")).isEqualTo("test");
    }

    private static V1Pod reservation(String name, int index, String annotatedUuid) {
        Map<String, String> annotations = new HashMap<>();
        if (annotatedUuid != null) {
            annotations.put(Conventions.GPU_UUID_ANNOTATION, annotatedUuid);
        }
        V1Pod pod = gpuPod(
                name,
                1,
                Map.of(
                        Conventions.ROLE_LABEL,
                        Conventions.RESERVATION_ROLE,
                        Conventions.GPU_INDEX_LABEL,
                        Integer.toString(index)));
        pod.getMetadata().setAnnotations(annotations);
        return pod;
    }

    private static V1Pod gpuPod(String name, int gpus, Map<String, String> labels) {
        Map<String, Quantity> limits = Map.of(Conventions.GPU_RESOURCE, new Quantity(Integer.toString(gpus)));
        return new V1Pod()
                .metadata(new V1ObjectMeta().name(name).uid("uid-" + name).labels(labels))
                .spec(new V1PodSpec()
                        .containers(List.of(new V1Container()
                                .name("main")
                                .resources(new V1ResourceRequirements().limits(limits)))));
    }
}

package io.quotient.adapters.k8s.observation;

import static io.quotient.adapters.k8s.K8sFixtures.gpuNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.quotient.core.cluster.NodeSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeFactsTest {

    private static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");
    private static final Duration FRESH = Duration.ofSeconds(60);

    @Test
    void readyGpuNodeBecomesASpecFromAllocatableAndGfdLabels() {
        NodeSpec spec = NodeFacts.spec(gpuNode("n1", 8, "True")).orElseThrow();

        assertThat(spec).isEqualTo(new NodeSpec("n1", 64_000, 256 * 1024, 8, "NVIDIA-H100-80GB-HBM3", 81920));
    }

    @Test
    void notReadyCordonedAndGpuLessNodesAreLeftOut() {
        assertThat(NodeFacts.spec(gpuNode("n1", 8, "False"))).isEmpty();
        assertThat(NodeFacts.spec(gpuNode("n1", 8, "True").spec(new V1NodeSpec().unschedulable(true))))
                .isEmpty();
        assertThat(NodeFacts.spec(gpuNode("n1", 0, "True"))).isEmpty();
    }

    @Test
    void gpuMemoryFallsBackToTheEnforcersReport() {
        V1Node node = gpuNode("n1", 2, "True");
        node.getMetadata().setLabels(Map.of());
        node.getMetadata().putAnnotationsItem(GpuReport.ANNOTATION, report(true, NOW));

        assertThat(NodeFacts.spec(node).orElseThrow().gpuMemoryMib()).isEqualTo(40960);
    }

    @Test
    void fractionReadyOnlyWithAReadyAndRecentReport() {
        V1Node fresh = withReport(report(true, NOW.minusSeconds(30)));
        V1Node stale = withReport(report(true, NOW.minusSeconds(61)));
        V1Node notReady = withReport(report(false, NOW));
        V1Node garbage = withReport("{not json");

        assertThat(NodeFacts.fractionReady(fresh, NOW, FRESH)).isTrue();
        assertThat(NodeFacts.fractionReady(stale, NOW, FRESH)).isFalse();
        assertThat(NodeFacts.fractionReady(notReady, NOW, FRESH)).isFalse();
        assertThat(NodeFacts.fractionReady(garbage, NOW, FRESH)).isFalse();
        assertThat(NodeFacts.fractionReady(gpuNode("n", 1, "True"), NOW, FRESH)).isFalse();
    }

    private static V1Node withReport(String json) {
        V1Node node = gpuNode("n1", 2, "True");
        node.getMetadata().putAnnotationsItem(GpuReport.ANNOTATION, json);
        return node;
    }

    private static String report(boolean ready, Instant updated) {
        return "{\"ready\": " + ready + ", \"reason\": \"\", \"updatedAt\": \"" + updated
                + "\", \"driverVersion\": \"550\","
                + " \"gpus\": [{\"index\":0,\"uuid\":\"GPU-1\",\"model\":\"A100\",\"memoryTotalMib\":40960,\"memoryUsedMib\":0}]}";
    }
}

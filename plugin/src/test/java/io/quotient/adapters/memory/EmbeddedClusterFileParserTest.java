package io.quotient.adapters.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.core.cluster.NodeSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddedClusterFileParserTest {

    @Test
    void expandsNodeGroups() {
        List<NodeSpec> nodes = EmbeddedClusterFileParser.parse("""
                nodes:
                  - {name: big, count: 2, gpus: 8, gpuModel: H100, gpuMemoryMib: 81559}
                  - {name: small, gpus: 1, gpuModel: T4, gpuMemoryMib: 15360, cpuMilli: 8000, memoryMib: 32768}
                """, "cluster.yaml");

        assertThat(nodes).extracting(NodeSpec::name).containsExactly("big-1", "big-2", "small");
        assertThat(nodes.get(0)).isEqualTo(new NodeSpec("big-1", 128_000, 1_048_576, 8, "H100", 81559));
        assertThat(nodes.get(2)).isEqualTo(new NodeSpec("small", 8000, 32768, 1, "T4", 15360));
    }

    @Test
    void namesTheLineOfAProblem() {
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse("""
                nodes:
                  - name: a
                    gpus: 4
                    gpuModel: A100
                  - {name: b, gpus: many, gpuModel: A100, gpuMemoryMib: 1}
                """, "cluster.yaml"))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.reason()).contains("needs 'gpuMemoryMib'");
                });
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse(
                        "nodes:\n  - {name: b, gpus: many, gpuModel: A100, gpuMemoryMib: 1}\n", "c"))
                .hasMessageContaining("c:2")
                .hasMessageContaining("gpus must be a whole number");
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse("nodes: []\n", "c"))
                .hasMessageContaining("at least one node");
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse(
                        "nodes:\n  - {name: b, gpus: 1, gpuModel: 'A100 80GB', gpuMemoryMib: 1}\n", "c"))
                .hasMessageContaining("c:2")
                .hasMessageContaining("gpuModel 'A100 80GB' is not a GPU model name");
    }

    /** A count or GPU number beyond an int was cut to its low 32 bits (4294967297 nodes read as 1). */
    @Test
    void aCountBeyondItsRangeIsRefusedNotWrapped() {
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse(
                        "nodes:\n  - {name: n, count: 4294967297, gpus: 8, gpuModel: A100, gpuMemoryMib: 81920}\n",
                        "c"))
                .hasMessageContaining("count must be from 1 to 100000, was 4294967297");
        assertThatThrownBy(() -> EmbeddedClusterFileParser.parse(
                        "nodes:\n  - {name: n, gpus: 4294967304, gpuModel: A100, gpuMemoryMib: 81920}\n", "c"))
                .hasMessageContaining("gpus must be from 0 to 1024, was 4294967304");
    }

    @Test
    void theBuiltInClusterIsFourNodesOfTenGpus() throws Exception {
        try (var in = getClass().getClassLoader().getResourceAsStream("quotient/embedded/cluster.yaml")) {
            List<NodeSpec> nodes = EmbeddedClusterFileParser.parse(new String(in.readAllBytes()), "built-in");
            assertThat(nodes)
                    .hasSize(4)
                    .allSatisfy(n -> assertThat(n.gpuCount()).isEqualTo(10));
        }
    }
}

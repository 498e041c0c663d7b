package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.NodeSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceReaderTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void readsElevenColumnPodsWithModelConstraints() throws IOException {
        Path pods = file("pods.csv", """
                name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
                openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
                openb-pod-0001,6000,12288,1,460,V100M16|V100M32,LS,Running,427061,12902960,427061
                openb-pod-0002,8000,30517,0,0,,BE,Running,1,2,1
                openb-pod-0003,32000,65536,8,1000,G2,LS,Running,1,2,1
                """);
        List<TracePod> read = TraceReader.readPods(pods);
        assertThat(read)
                .extracting(TracePod::name)
                .containsExactly("openb-pod-0000", "openb-pod-0001", "openb-pod-0002", "openb-pod-0003");
        assertThat(read.get(0).demand().allowedModels()).isEmpty();
        assertThat(read.get(1).demand().allowedModels()).containsExactlyInAnyOrder("V100M16", "V100M32");
        assertThat(read.get(1).demand().gpuMilli()).isEqualTo(460);
        assertThat(read.get(2).demand().needsGpu()).isFalse();
        assertThat(read.get(3).gpuMilli()).isEqualTo(8000);
        assertThat(read.get(3).demand().memoryMib()).isEqualTo(65536);
    }

    @Test
    void aModelNamedTwiceInAGpuSpecIsAllowedOnce() throws IOException {
        // the published gpuspec files have specs such as V100M16|V100M32|V100M32
        Path pods = file("twice.csv", """
                name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec
                openb-pod-0000,3152,5600,1,1000,V100M16|V100M32|V100M32
                openb-pod-0001,3152,5600,1,1000,V100M16|V100M32
                """);
        List<TracePod> read = TraceReader.readPods(pods);
        assertThat(read.get(0).demand().allowedModels()).containsExactlyInAnyOrder("V100M16", "V100M32");
        assertThat(read.get(0).demand()).isEqualTo(read.get(1).demand());
    }

    @Test
    void readsFiveColumnPodsWithoutAHeader() throws IOException {
        Path pods = file("pods.csv", "p1,4000,1024,1,500\np2,2000,512,0,0\n\n");
        List<TracePod> read = TraceReader.readPods(pods);
        assertThat(read).hasSize(2);
        assertThat(read.get(0).demand().gpuMilli()).isEqualTo(500);
        assertThat(read.get(0).demand().allowedModels()).isEmpty();
    }

    @Test
    void readsColumnsByTheHeadersNamesSoAPodListWithoutMemoryReads() throws IOException {
        // the FGD simulator's published openb_pod_list_nomem.csv: memory_mib left out, gpu_spec in column 5
        Path pods = file("nomem.csv", """
                name,cpu_milli,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
                openb-pod-0000,12000,1,1000,,LS,Running,0,12537496,0
                openb-pod-0001,6000,1,460,T4|P100,LS,Running,427061,12902960,427061
                openb-pod-0002,8000,0,0,,BE,Running,1,2,1
                """);
        List<TracePod> read = TraceReader.readPods(pods);
        assertThat(read)
                .extracting(TracePod::name)
                .containsExactly("openb-pod-0000", "openb-pod-0001", "openb-pod-0002");
        assertThat(read.get(1).demand().gpuMilli()).isEqualTo(460);
        assertThat(read.get(1).demand().cpuMilli()).isEqualTo(6000);
        assertThat(read.get(1).demand().allowedModels()).containsExactlyInAnyOrder("T4", "P100");
        assertThat(read).allSatisfy(pod -> assertThat(pod.demand().memoryMib()).isZero());
        assertThat(read.get(2).demand().needsGpu()).isFalse();
    }

    @Test
    void readsColumnsInAnyOrderAndIgnoresUnknownOnes() throws IOException {
        Path pods =
                file("reordered.csv", "name,gpu_milli,num_gpu,team,memory_mib,cpu_milli\np1,500,1,vision,2048,4000\n");
        TracePod pod = TraceReader.readPods(pods).get(0);
        assertThat(pod.demand().gpuMilli()).isEqualTo(500);
        assertThat(pod.demand().memoryMib()).isEqualTo(2048);
        assertThat(pod.demand().cpuMilli()).isEqualTo(4000);
        assertThat(pod.demand().allowedModels()).isEmpty();
    }

    @Test
    void aHeaderWithoutARequiredColumnIsRefusedByName() throws IOException {
        Path pods = file("nogpu.csv", "name,cpu_milli,memory_mib,num_gpu\np1,4000,1024,1\n");
        assertThatThrownBy(() -> TraceReader.readPods(pods))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(pods + ":1:1:")
                .hasMessageContaining("no column gpu_milli")
                .hasMessageContaining("memory_mib,gpu_spec");
        Path twice = file("twice.csv", "name,cpu_milli,num_gpu,gpu_milli,cpu_milli\np1,4000,1,500,2000\n");
        assertThatThrownBy(() -> TraceReader.readPods(twice))
                .hasMessageStartingWith(twice + ":1:5:")
                .hasMessageContaining("cpu_milli is named twice");
    }

    /** A bad row of a file with a header is refused at the line and the column the header gave its cell. */
    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "name,cpu_milli,num_gpu,gpu_milli,gpu_spec|p1,4000,1,500,|p2,4000,1; 3:1:; at least 5",
                "name,cpu_milli,num_gpu,gpu_milli|p1,4000,1,half; 2:4:; gpu_milli must be a whole number, was 'half'"
            })
    void aBadRowIsRefusedWhereTheHeaderPutsIt(String lines, String position, String problem) throws IOException {
        Path pods = file("bad.csv", lines.replace('|', '\n') + "\n");
        assertThatThrownBy(() -> TraceReader.readPods(pods))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(pods + ":" + position)
                .hasMessageContaining(problem);
    }

    @Test
    void aNodeListWithoutMemoryHasNoMemoryLimit() throws IOException {
        Path nodes = file("nodes.csv", "sn,cpu_milli,gpu,model\nn1,64000,2,T4\n");
        assertThat(TraceReader.readNodes(nodes)).containsExactly(new NodeSpec("n1", 64000, Long.MAX_VALUE, 2, "T4", 0));
    }

    @Test
    void readsNodesIncludingCpuOnlyNodes() throws IOException {
        Path nodes = file("nodes.csv", """
                sn,cpu_milli,memory_mib,gpu,model
                openb-node-0000,64000,262144,2,P100
                openb-node-0001,32000,262144,0,
                """);
        List<NodeSpec> read = TraceReader.readNodes(nodes);
        assertThat(read)
                .containsExactly(
                        new NodeSpec("openb-node-0000", 64000, 262144, 2, "P100", 0),
                        new NodeSpec("openb-node-0001", 32000, 262144, 0, "", 0));
    }

    @Test
    void namesFileLineAndColumnOfABadNumber() throws IOException {
        Path pods = file(
                "bad.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,4000,1024,1,500\np2,4000,lots,1,500\n");
        assertThatThrownBy(() -> TraceReader.readPods(pods))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(pods + ":3:3:")
                .hasMessageContaining("memory_mib")
                .hasMessageContaining("'lots'");
    }

    @Test
    void rejectsRowsWithTooFewColumns() throws IOException {
        Path pods = file("short.csv", "p1,4000,1024\n");
        assertThatThrownBy(() -> TraceReader.readPods(pods))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(pods + ":1:1:")
                .hasMessageContaining("at least 5");
    }

    @Test
    void rejectsImpossibleGpuRequests() throws IOException {
        Path over = file("over.csv", "p1,4000,1024,1,1500\n");
        assertThatThrownBy(() -> TraceReader.readPods(over))
                .hasMessageStartingWith(over + ":1:5:")
                .hasMessageContaining("between 0 and 1000");
        Path zero = file("zero.csv", "p1,4000,1024,2,0\n");
        assertThatThrownBy(() -> TraceReader.readPods(zero)).hasMessageStartingWith(zero + ":1:5:");
        Path negative = file("neg.csv", "p1,-1,1024,0,0\n");
        assertThatThrownBy(() -> TraceReader.readPods(negative)).hasMessageStartingWith(negative + ":1:2:");
    }

    @Test
    void rejectsNodesWithGpusButNoModel() throws IOException {
        Path nodes = file("nodes.csv", "n1,64000,262144,2,\n");
        assertThatThrownBy(() -> TraceReader.readNodes(nodes))
                .hasMessageStartingWith(nodes + ":1:5:")
                .hasMessageContaining("GPU model");
    }

    @Test
    void rejectsMissingAndEmptyFiles() throws IOException {
        assertThatThrownBy(() -> TraceReader.readPods(dir.resolve("absent.csv")))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("no such file");
        Path empty = file("empty.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n");
        assertThatThrownBy(() -> TraceReader.readPods(empty)).hasMessageContaining("no pods");
    }

    /**
     * As spreadsheets write them: a byte order mark, quoted cells, a header whose first column is not the name; the
     * header was read as a row of data ("cpu_milli must be a whole number, was 'cpu_milli'").
     */
    @Test
    void aSpreadsheetsNodeListIsReadByItsHeader() throws IOException {
        Path nodes =
                file("excel.csv", "\uFEFF\"sn\",\"cpu_milli\",\"gpu\",\"model\"\r\n\"n1\",\"64000\",\"2\",\"T4\"\r\n");
        assertThat(TraceReader.readNodes(nodes)).containsExactly(new NodeSpec("n1", 64000, Long.MAX_VALUE, 2, "T4", 0));
        Path reordered = file("reordered-nodes.csv", "gpu,model,sn,cpu_milli\n2,T4,n1,64000\n");
        assertThat(TraceReader.readNodes(reordered))
                .containsExactly(new NodeSpec("n1", 64000, Long.MAX_VALUE, 2, "T4", 0));
    }

    @Test
    void aDirectoryOrBytesThatAreNotUtf8AreNamedAsSuch() throws IOException {
        assertThatThrownBy(() -> TraceReader.readNodes(dir))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("is a directory");
        Path latin1 = dir.resolve("latin1.csv");
        Files.write(latin1, "sn,cpu_milli,gpu,model\nn\u00e9,64000,2,T4\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> TraceReader.readNodes(latin1))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("is not UTF-8 text")
                .hasMessageNotContaining("java.");
    }
}

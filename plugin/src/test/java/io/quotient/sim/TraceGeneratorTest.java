package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The family generator on the shipped openb traces: shares reached, constraints that can be met, determinism. */
class TraceGeneratorTest {

    private static final Path DATA = Path.of(System.getProperty("quotient.data.dir", "../data/openb"));
    private static final List<NodeSpec> NODES = TraceReader.readNodes(DATA.resolve("openb_node_list_gpu_node.csv"));
    private static final List<TracePod> DEFAULT = TraceReader.readPods(DATA.resolve("openb_pod_list_default.csv"));
    private static final List<TracePod> GPUSPEC05 = TraceReader.readPods(DATA.resolve("openb_pod_list_gpuspec05.csv"));

    private static double gpuDemand(List<TracePod> pods, Predicate<ResourceDemand> which) {
        return pods.stream()
                .filter(p -> which.test(p.demand()))
                .mapToLong(TracePod::gpuMilli)
                .sum();
    }

    private static double share(List<TracePod> pods, Predicate<ResourceDemand> which) {
        return gpuDemand(pods, which) / gpuDemand(pods, d -> true);
    }

    @Test
    void reachesEveryShareItIsAskedFor() {
        List<TracePod> pods = new TraceGenerator(DEFAULT, NODES).generate(new TraceFamily(0.33, 0.60, 0.20, 0.25), 42);
        long gpuPods = pods.stream().filter(p -> p.demand().needsGpu()).count();
        assertThat(gpuPods)
                .as("GPU pods keep their number")
                .isEqualTo(DEFAULT.stream().filter(p -> p.demand().needsGpu()).count());
        assertThat((double) (pods.size() - gpuPods) / pods.size())
                .as("CPU-only share")
                .isCloseTo(0.25, within(0.001));
        assertThat((double) pods.stream()
                                .filter(p -> !p.demand().allowedModels().isEmpty())
                                .count()
                        / gpuPods)
                .as("gpu_spec share")
                .isCloseTo(0.33, within(0.001));
        assertThat(share(pods, d -> d.gpuCount() == 1 && d.gpuMilli() < 1000))
                .as("fractional share")
                .isCloseTo(0.60, within(0.03));
        assertThat(share(pods, d -> d.gpuCount() > 1)).as("multi-GPU share").isCloseTo(0.20, within(0.03));
    }

    @Test
    void keepsWhatItIsNotAskedToChange() {
        List<TracePod> pods = new TraceGenerator(GPUSPEC05, NODES).generate(new TraceFamily(null, null, null, 0.0), 7);
        assertThat(pods).allMatch(p -> p.demand().needsGpu());
        assertThat(pods.stream().map(p -> p.demand()).toList())
                .containsExactlyInAnyOrderElementsOf(GPUSPEC05.stream()
                        .map(TracePod::demand)
                        .filter(ResourceDemand::needsGpu)
                        .toList());
    }

    @Test
    void constrainsPodsOnlyToModelsWithANodeThatHoldsThem() {
        for (TraceFamily.ModelMix mix : TraceFamily.ModelMix.values()) {
            List<TracePod> pods =
                    new TraceGenerator(GPUSPEC05, NODES).generate(new TraceFamily(0.5, null, 0.4, null, mix), 3);
            for (TracePod p : pods) {
                ResourceDemand d = p.demand();
                if (!d.allowedModels().isEmpty()) {
                    assertThat(NODES)
                            .as("%s (%s) has a node", p, mix)
                            .anyMatch(n -> d.allowsModel(n.gpuModel())
                                    && n.gpuCount() >= d.gpuCount()
                                    && n.cpuMilli() >= d.cpuMilli()
                                    && n.memoryMib() >= d.memoryMib());
                }
            }
        }
    }

    @Test
    void drawsModelsByTheClusterMixOrByTheTraceMix() {
        List<TracePod> byCluster =
                new TraceGenerator(DEFAULT, NODES).generate(new TraceFamily(0.5, null, null, null), 1);
        List<TracePod> byTrace = new TraceGenerator(GPUSPEC05, NODES)
                .generate(new TraceFamily(0.5, null, null, null, TraceFamily.ModelMix.TRACE), 1);
        // the cluster has 71 % of its GPUs in G2 and 14 % in T4; gpuspec05's constraints are mostly T4-only
        assertThat(onlyModel(byCluster, "G2")).isGreaterThan(onlyModel(byCluster, "T4") * 3);
        assertThat(onlyModel(byTrace, "T4")).isGreaterThan(onlyModel(byTrace, "G2") * 2);
    }

    private static long onlyModel(List<TracePod> pods, String model) {
        return pods.stream()
                .filter(p -> p.demand().allowedModels().equals(Set.of(model)))
                .count();
    }

    @Test
    void isDeterministicPerSeedAndDiffersBetweenSeeds() {
        TraceFamily family = new TraceFamily(0.2, 0.4, 0.1, 0.2);
        TraceGenerator generator = new TraceGenerator(DEFAULT, NODES);
        assertThat(generator.generate(family, 5)).isEqualTo(new TraceGenerator(DEFAULT, NODES).generate(family, 5));
        assertThat(generator.generate(family, 5)).isNotEqualTo(generator.generate(family, 6));
    }

    @Test
    void writesTheOpenbFormatThatTheReaderReadsBack(@TempDir Path dir) throws Exception {
        List<TracePod> pods = new TraceGenerator(GPUSPEC05, NODES).generate(new TraceFamily(0.3, null, null, null), 9);
        StringWriter text = new StringWriter();
        TraceWriter.write(pods, text);
        assertThat(text.toString()).startsWith(TraceWriter.HEADER + "\n");
        Path file = Files.writeString(dir.resolve("family.csv"), text.toString());
        assertThat(TraceReader.readPods(file)).isEqualTo(pods);
    }

    @Test
    void refusesSharesTheBaseTraceCannotGive() {
        List<TracePod> wholeOnly =
                DEFAULT.stream().filter(p -> p.demand().gpuMilli() == 1000).toList();
        assertThatThrownBy(
                        () -> new TraceGenerator(wholeOnly, NODES).generate(new TraceFamily(null, 0.5, null, null), 1))
                .hasMessageContaining("no fractional pods");
        assertThatThrownBy(() -> new TraceGenerator(DEFAULT, NODES)
                        .generate(new TraceFamily(0.2, null, null, null, TraceFamily.ModelMix.TRACE), 1))
                .hasMessageContaining("no gpu_spec constraints");
        assertThatThrownBy(() -> new TraceFamily(null, 0.7, 0.5, null)).hasMessageContaining("more than 100 %");
        assertThatThrownBy(() -> new TraceFamily(null, null, null, 1.0)).hasMessageContaining("CPU-only share");
    }
}

package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /**
     * A cluster in the PAI 2020 mix at 1/20 scale (docs/research/packing.md, "Model pins on small machines"): two
     * 2-GPU models on 65 machines, three 8-GPU models on 26.
     */
    private static List<NodeSpec> paiLikeCluster() {
        List<NodeSpec> nodes = new ArrayList<>();
        record Kind(String model, int machines, int gpus, long cpuMilli, long memoryMib) {}
        for (Kind k : List.of(
                new Kind("P100", 40, 2, 64_000, 524_288),
                new Kind("T4", 25, 2, 96_000, 524_288),
                new Kind("MISC", 14, 8, 96_000, 524_288),
                new Kind("V100", 5, 8, 96_000, 393_216),
                new Kind("V100M32", 7, 8, 96_000, 393_216))) {
            for (int i = 0; i < k.machines(); i++) {
                nodes.add(new NodeSpec(k.model() + "-" + i, k.cpuMilli(), k.memoryMib(), k.gpus(), k.model(), 0));
            }
        }
        return nodes;
    }

    @Test
    void pinsEveryGpuPodInProportionToTheFleetsGpusPerModel() {
        List<NodeSpec> cluster = paiLikeCluster();
        double gpus = cluster.stream().mapToInt(NodeSpec::gpuCount).sum();
        List<TracePod> pinned =
                new TraceGenerator(DEFAULT, cluster).generate(new TraceFamily(1.0, null, null, null), 42);
        List<TracePod> gpuPods =
                pinned.stream().filter(p -> p.demand().needsGpu()).toList();

        // every GPU pod that some machine can hold is pinned (a few 8-GPU pods ask more CPU than any machine has)
        assertThat(gpuPods)
                .filteredOn(p -> cluster.stream()
                        .anyMatch(n -> n.gpuCount() >= p.demand().gpuCount()
                                && n.cpuMilli() >= p.demand().cpuMilli()
                                && n.memoryMib() >= p.demand().memoryMib()))
                .hasSizeGreaterThan(gpuPods.size() * 99 / 100)
                .allMatch(p -> !p.demand().allowedModels().isEmpty());
        // pods that every model can hold (one or two GPUs, CPU and memory of the smallest machines) are pinned to one
        // model by its share of the fleet's GPUs; 15 % of pinned pods get two to four models
        List<TracePod> anywhere = gpuPods.stream()
                .filter(p -> p.demand().gpuCount() <= 2
                        && p.demand().cpuMilli() <= 64_000
                        && p.demand().memoryMib() <= 393_216)
                .toList();
        List<TracePod> oneModel = anywhere.stream()
                .filter(p -> p.demand().allowedModels().size() == 1)
                .toList();
        assertThat(1 - (double) oneModel.size() / anywhere.size())
                .as("share pinned to several models")
                .isCloseTo(TraceGenerator.MULTI_MODEL_PCT / 100.0, within(0.02));
        for (String model : List.of("P100", "T4", "MISC", "V100", "V100M32")) {
            double fleetShare = cluster.stream()
                            .filter(n -> n.gpuModel().equals(model))
                            .mapToInt(NodeSpec::gpuCount)
                            .sum()
                    / gpus;
            assertThat((double) onlyModel(oneModel, model) / oneModel.size())
                    .as("share of single-model pins on %s", model)
                    .isCloseTo(fleetShare, within(0.02));
        }
        // a pod on more GPUs than a small machine has is pinned only to models of 8-GPU machines
        assertThat(gpuPods.stream().filter(p -> p.demand().gpuCount() > 2))
                .isNotEmpty()
                .allMatch(p ->
                        Set.of("MISC", "V100", "V100M32").containsAll(p.demand().allowedModels()));
        assertThat(new TraceGenerator(DEFAULT, cluster).generate(new TraceFamily(0.0, null, null, null), 42))
                .as("the unpinned member for comparison")
                .allMatch(p -> p.demand().allowedModels().isEmpty());
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

package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.TieBreak;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** A pod list measured as published: the benchmark's figures are the simulator's on that file, seed by seed. */
class FamilyBenchmarkTest {

    private static final Path DATA = Path.of(System.getProperty("quotient.data.dir", "../data/openb"));

    @Test
    void aPublishedPodListIsReplayedAsItIsWithEachSeed() {
        List<NodeSpec> all = TraceReader.readNodes(DATA.resolve("openb_node_list_gpu_node.csv"));
        List<NodeSpec> slice = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 8) {
            slice.add(all.get(i));
        }
        String file = PodLists.of(DATA, "gpuspec05").toString();
        List<TracePod> pods = TraceReader.readPods(Path.of(file));
        List<Placement> placements = List.of(
                Placement.policy("fgd", TieBreak.FIXED_ORDER), Placement.policy("quotient", TieBreak.FIXED_ORDER));
        List<Long> seeds = List.of(42L, 43L);
        List<String> asked = new ArrayList<>();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            FamilyBenchmark benchmark = new FamilyBenchmark(
                    slice,
                    path -> {
                        asked.add(path);
                        return TraceReader.readPods(Path.of(path));
                    },
                    placements,
                    seeds,
                    pool);
            FamilyBenchmark.Family published = FamilyBenchmark.Family.asPublished(file);

            FamilyBenchmark.Row row = benchmark.run(published);

            assertThat(published.name()).isEqualTo("gpuspec05");
            assertThat(asked).containsExactly(file);
            Simulator simulator = new Simulator(slice, pods, Simulator.DEFAULT_INFLATION);
            for (int p = 0; p < placements.size(); p++) {
                List<Double> expected = new ArrayList<>();
                for (long seed : seeds) {
                    expected.add(simulator
                            .run(placements.get(p), seed, Simulator.Progress.NONE)
                            .unallocatedGpuPctAt100());
                }
                assertThat(row.results().get(p).unallocatedBySeed())
                        .as(placements.get(p).label())
                        .isEqualTo(expected);
            }
            // a generated member of the same base differs: the published one is not a reshuffled copy
            FamilyBenchmark.Row generated =
                    benchmark.run(new FamilyBenchmark.Family(file, new TraceFamily(0.05, null, null, null)));
            assertThat(generated.results().get(1).unallocatedBySeed())
                    .isNotEqualTo(row.results().get(1).unallocatedBySeed());
        } finally {
            pool.shutdownNow();
        }
    }
}

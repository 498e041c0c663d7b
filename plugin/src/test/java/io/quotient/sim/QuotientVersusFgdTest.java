package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Quotient's policy against FGD, seed by seed, on a small slice of the openb cluster (every 8th node,
 * 152 nodes) so the comparison runs in seconds. The full cluster and the published figures are in
 * {@link ReproductionTest}; this one pins the behaviour on each kind of trace: fraction-heavy, CPU-heavy
 * and GPU-model-constrained.
 */
class QuotientVersusFgdTest {

    private static final int NODE_STEP = 8;
    private static final long FIRST_SEED = 42;
    private static final int SEEDS = 4;

    private static Path dataDir() {
        return Path.of(System.getProperty("quotient.data.dir", "../data/openb"));
    }

    private static List<NodeSpec> everyEighthNode() {
        List<NodeSpec> all = TraceReader.readNodes(dataDir().resolve("openb_node_list_gpu_node.csv"));
        List<NodeSpec> slice = new ArrayList<>();
        for (int i = 0; i < all.size(); i += NODE_STEP) {
            slice.add(all.get(i));
        }
        return slice;
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "gpushare100", "cpu250", "gpuspec05"})
    void quotientLeavesFewerGpusUnallocatedThanFgdOnEverySeed(String variant) {
        Simulator simulator = new Simulator(
                everyEighthNode(), TraceReader.readPods(PodLists.of(dataDir(), variant)), Simulator.DEFAULT_INFLATION);
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            RunResult fgd = simulator.run("fgd", seed, Simulator.Progress.NONE);
            RunResult quotient = simulator.run("quotient", seed, Simulator.Progress.NONE);
            assertThat(quotient.unallocatedGpuPctAt100())
                    .as("%s seed %d: quotient vs fgd %.3f %%", variant, seed, fgd.unallocatedGpuPctAt100())
                    .isLessThan(fgd.unallocatedGpuPctAt100());
            assertThat(quotient.fragAmountPctAt100())
                    .as("%s seed %d: fragmentation", variant, seed)
                    .isLessThan(fgd.fragAmountPctAt100());
        }
    }
}

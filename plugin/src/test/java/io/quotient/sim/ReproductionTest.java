package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulator against the FGD paper's published results on the shipped openb traces (docs/research/packing.md):
 * all six reference policies must land within half a point of the reference on {@code default} and the
 * {@code gpushare} variants, with ties to the seeded node order as the published simulator breaks them, and
 * Quotient's policy must leave fewer GPUs unallocated than FGD everywhere. Runs use two threads (the CI machine
 * has two cores).
 */
class ReproductionTest {

    private static final List<Long> SEEDS =
            LongStream.rangeClosed(42, 51).boxed().toList();
    private static final List<Long> FEW_SEEDS = List.of(42L, 43L, 44L);
    private static final double TOLERANCE = 0.5;

    /** docs/research/packing.md: unallocated GPU % at arrived = 100 %, mean of seeds 42..51. */
    private static final Map<String, Double> BESTFIT =
            Map.of("default", 7.14, "gpushare40", 8.56, "gpushare60", 10.94, "gpushare80", 13.34, "gpushare100", 15.38);

    private static final Map<String, Double> FGD = Map.of(
            "default",
            4.77,
            "gpushare40",
            6.04,
            "gpushare60",
            8.75,
            "gpushare80",
            10.92,
            "gpushare100",
            13.36,
            "cpu050",
            5.00,
            "cpu100",
            4.79,
            "cpu200",
            5.18,
            "cpu250",
            6.80);

    /** docs/research/packing.md, the same table: random, dotprod, clustering, packing in that order. */
    private static final Map<String, List<Double>> OTHERS = Map.of(
            "default",
            List.of(13.70, 9.38, 8.35, 8.22),
            "gpushare40",
            List.of(15.14, 10.70, 10.24, 10.23),
            "gpushare60",
            List.of(17.19, 13.18, 13.10, 12.85),
            "gpushare80",
            List.of(19.38, 15.86, 15.50, 15.35),
            "gpushare100",
            List.of(21.10, 18.02, 17.78, 17.87));

    private static final List<String> OTHER_POLICIES = List.of("random", "dotprod", "clustering", "packing");

    private static ExecutorService pool;
    private static List<NodeSpec> nodes;
    private static final Map<String, Simulator> SIMULATORS = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(2);
        nodes = TraceReader.readNodes(dataDir().resolve("openb_node_list_gpu_node.csv"));
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    private static Path dataDir() {
        return Path.of(System.getProperty("quotient.data.dir", "../data/openb"));
    }

    private static Simulator simulator(String variant) {
        return SIMULATORS.computeIfAbsent(
                variant,
                v -> new Simulator(
                        nodes, TraceReader.readPods(PodLists.of(dataDir(), v)), Simulator.DEFAULT_INFLATION));
    }

    private static double mean(String policy, String variant, List<Long> seeds) throws Exception {
        return bySeed(policy, variant, seeds).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
    }

    /** Unallocated GPU % at 100 % arrived, per seed, in the order of the seeds. */
    private static List<Double> bySeed(String policy, String variant, List<Long> seeds) throws Exception {
        List<Future<RunResult>> runs = new ArrayList<>();
        for (long seed : seeds) {
            runs.add(pool.submit(() -> simulator(variant).run(policy, seed, Simulator.Progress.NONE)));
        }
        List<Double> unallocated = new ArrayList<>();
        for (Future<RunResult> run : runs) {
            unallocated.add(run.get().unallocatedGpuPctAt100());
        }
        return unallocated;
    }

    @Test
    void bestFitReproducesThePublishedResults() throws Exception {
        for (var reference : BESTFIT.entrySet()) {
            assertThat(mean("bestfit", reference.getKey(), SEEDS))
                    .as("bestfit on %s", reference.getKey())
                    .isCloseTo(reference.getValue(), Assertions.within(TOLERANCE));
        }
    }

    @Test
    void fgdReproducesThePublishedResults() throws Exception {
        for (String variant : BESTFIT.keySet()) {
            assertThat(mean("fgd", variant, SEEDS))
                    .as("fgd on %s", variant)
                    .isCloseTo(FGD.get(variant), Assertions.within(TOLERANCE));
        }
    }

    @Test
    void theOtherReferencePoliciesReproduceThePublishedResults() throws Exception {
        for (var reference : OTHERS.entrySet()) {
            for (int p = 0; p < OTHER_POLICIES.size(); p++) {
                String policy = OTHER_POLICIES.get(p);
                assertThat(mean(policy, reference.getKey(), SEEDS))
                        .as("%s on %s", policy, reference.getKey())
                        .isCloseTo(reference.getValue().get(p), Assertions.within(TOLERANCE));
            }
        }
    }

    /** At least 10 % fewer unallocated GPUs than FGD's published figure on default and the fraction-heavy variants. */
    @Test
    void quotientBeatsFgdByTenPercentOnDefaultAndGpuSharing() throws Exception {
        for (String variant : BESTFIT.keySet()) {
            double fgd = FGD.get(variant);
            assertThat(mean("quotient", variant, SEEDS))
                    .as("quotient on %s (FGD %.2f)", variant, fgd)
                    .isLessThanOrEqualTo(fgd * 0.9);
        }
    }

    @Test
    void quotientBeatsFgdOnTheCpuHeavyVariantsWithAReference() throws Exception {
        for (String variant : List.of("cpu050", "cpu100", "cpu200", "cpu250")) {
            assertThat(mean("quotient", variant, SEEDS.subList(0, 5)))
                    .as("quotient on %s", variant)
                    .isLessThan(FGD.get(variant));
        }
    }

    /**
     * The issue asks for no seed above FGD, not only the mean: on cpu250, where the CPU-only pods' CPU slightly exceeds
     * the cluster's spare CPU, one seed of ten was above FGD while the fragmentation term also scored CPU-only pods, and
     * one stayed at 0.993x FGD while the forecast judged CPU by a single figure per GPU; taken class by class where CPU
     * is short ({@code CpuShortfall}) every seed is under 0.73x, so 0.8x is asked of each.
     */
    @Test
    void quotientStaysWellUnderFgdOnEverySeedOfCpu250() throws Exception {
        List<Double> fgd = bySeed("fgd", "cpu250", SEEDS);
        List<Double> quotient = bySeed("quotient", "cpu250", SEEDS);
        for (int i = 0; i < SEEDS.size(); i++) {
            assertThat(quotient.get(i))
                    .as("quotient on cpu250, seed %d (FGD %.2f)", SEEDS.get(i), fgd.get(i))
                    .isLessThan(0.8 * fgd.get(i));
        }
    }

    /** Variants the paper has no figure for: against FGD run here on the same seeds. */
    @Test
    void quotientBeatsFgdOnEveryOtherShippedVariant() throws Exception {
        for (String variant : List.of("gpushare20", "gpuspec05", "cpu0", "cpu037", "cpu072", "cpu235", "cpu300")) {
            double fgd = mean("fgd", variant, FEW_SEEDS);
            assertThat(mean("quotient", variant, FEW_SEEDS))
                    .as("quotient on %s (FGD %.2f)", variant, fgd)
                    .isLessThan(fgd);
        }
    }
}

package io.quotient.core.placement;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.node;
import static io.quotient.core.placement.Clusters.use;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.ClusterState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** F_n(M) of docs/research/packing.md on hand-computed nodes. */
class FragmentationMeasureTest {

    // A: 1 whole GPU with 4 CPUs (p .5); B: half a GPU with 2 CPUs (p .3); C: CPU-only (p .2)
    private final FragmentationMeasure measure = new FragmentationMeasure(new TargetWorkload(List.of(
            new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 0.5),
            new TargetWorkload.Shape(2_000, 1, 500, Set.of(), 0.3),
            new TargetWorkload.Shape(8_000, 0, 0, Set.of(), 0.2))));

    @Test
    void countsOnlyTooSmallGpusForShapesThatFit() {
        // R = 1900; A: 600 + 300 + 0 stranded; B: 300 stranded; C (CPU-only): all 1900
        double f = measure.of("T4", 10_000, new int[] {1000, 600, 300, 0}, 4);
        assertThat(f).isCloseTo(0.5 * 900 + 0.3 * 300 + 0.2 * 1900, within(1e-9));
    }

    @Test
    void strandsEverythingForAShapeTheNodeLacksCpuFor() {
        double f = measure.of("T4", 3_000, new int[] {1000, 600, 300, 0}, 4);
        assertThat(f).isCloseTo(0.5 * 1900 + 0.3 * 300 + 0.2 * 1900, within(1e-9));
    }

    @Test
    void strandsEverythingForAShapeWithTooFewLargeEnoughGpus() {
        FragmentationMeasure twoWhole = new FragmentationMeasure(
                new TargetWorkload(List.of(new TargetWorkload.Shape(1_000, 2, 1000, Set.of(), 1.0))));
        assertThat(twoWhole.of("T4", 10_000, new int[] {1000, 900}, 2)).isEqualTo(1900);
        assertThat(twoWhole.of("T4", 10_000, new int[] {1000, 1000, 900}, 3)).isEqualTo(900);
    }

    @Test
    void strandsEverythingOnANodeOfAModelTheShapeDoesNotAllow() {
        FragmentationMeasure onlyV100 = new FragmentationMeasure(
                new TargetWorkload(List.of(new TargetWorkload.Shape(1_000, 1, 500, Set.of("V100"), 1.0))));
        assertThat(onlyV100.of("T4", 10_000, new int[] {1000, 200}, 2)).isEqualTo(1200);
        assertThat(onlyV100.of("V100", 10_000, new int[] {1000, 200}, 2)).isEqualTo(200);
    }

    @Test
    void withinAModelsMixLeavesOutTheShapesPinnedElsewhereAndRenormalises() {
        // the measure's workload, plus as much again pinned to V100: on a T4 node F is the measure's own F
        List<TargetWorkload.Shape> shapes = new ArrayList<>(measure.workload().shapes());
        shapes.add(new TargetWorkload.Shape(4_000, 1, 1000, Set.of("V100"), 0.6));
        shapes.add(new TargetWorkload.Shape(2_000, 1, 250, Set.of("V100"), 0.4));
        TargetWorkload withPins = new TargetWorkload(shapes);
        int[] free = {1000, 600, 300, 0};

        assertThat(FragmentationMeasure.withinModelsMix(withPins).of("T4", 10_000, free, 4))
                .isCloseTo(measure.of("T4", 10_000, free, 4), within(1e-9));
        // FGD's F counts the V100 jobs as stranding all 1,900 idle milli: half the weight of the T4 jobs' part
        assertThat(new FragmentationMeasure(withPins).of("T4", 10_000, free, 4))
                .isCloseTo(0.5 * measure.of("T4", 10_000, free, 4) + 0.5 * 1900, within(1e-9));
        // without pins it is FGD's F to the last bit; a model no shape allows loses all its idle GPU
        assertThat(FragmentationMeasure.withinModelsMix(measure.workload()).of("T4", 3_000, free, 4))
                .isEqualTo(measure.of("T4", 3_000, free, 4));
        TargetWorkload onlyV100 =
                new TargetWorkload(List.of(new TargetWorkload.Shape(1_000, 1, 500, Set.of("V100"), 1.0)));
        assertThat(FragmentationMeasure.withinModelsMix(onlyV100).of("T4", 10_000, new int[] {1000, 200}, 2))
                .isEqualTo(1200);
    }

    @Test
    void aNodeWithNoIdleGpuHasNoFragmentation() {
        assertThat(measure.of("T4", 0, new int[] {0, 0}, 2)).isZero();
    }

    @Test
    void readsNodesFromTheClusterStateAndSumsThem() {
        ClusterState state = cluster(node("a", 2, "T4"), node("b", 1, "T4"));
        use(state, 0, 0, 700);
        // node a: [300, 1000], 64 CPUs: A strands 300, B strands 300, C strands 1300
        double a = 0.5 * 300 + 0.3 * 300 + 0.2 * 1300;
        // node b: [1000]: A and B strand nothing, C strands 1000
        double b = 0.2 * 1000;
        assertThat(measure.of(state, 0)).isCloseTo(a, within(1e-9));
        assertThat(measure.clusterFragmentation(state)).isCloseTo(a + b, within(1e-9));
    }

    @Test
    void aCpuOnlyPodThatChangesNoShapesOutcomeLeavesTheValueUnchangedToTheLastBit() {
        // both 2-GPU shapes are stranded on a node with one free GPU, with or without their CPU; FGD scores a CPU-only
        // pod by the change, and a difference of one rounding error turns the tie at 0 into a loss (score 49, not 50)
        FragmentationMeasure twoGpuShapes = new FragmentationMeasure(new TargetWorkload(List.of(
                new TargetWorkload.Shape(2_000, 2, 1000, Set.of(), 0.2),
                new TargetWorkload.Shape(6_000, 2, 1000, Set.of(), 0.35))));
        int[] gpus = {300, 0};
        assertThat(twoGpuShapes.of("T4", 4_000, gpus, 2)).isEqualTo(twoGpuShapes.of("T4", 8_000, gpus, 2));
    }

    @Test
    void agreesWithTheDefinitionShapeByShapeOnRandomWorkloadsAndNodes() {
        Random random = new Random(7);
        String[] models = {"T4", "V100", "A10"};
        for (int trial = 0; trial < 200; trial++) {
            List<TargetWorkload.Shape> shapes = new ArrayList<>();
            int count = 1 + random.nextInt(40);
            for (int i = 0; i < count; i++) {
                int gpus = random.nextInt(4) == 0 ? 0 : 1 << random.nextInt(4);
                int milli = gpus == 0 ? 0 : gpus > 1 || random.nextBoolean() ? 1000 : 50 * (1 + random.nextInt(19));
                Set<String> allowed = random.nextInt(3) == 0 ? Set.of(models[random.nextInt(3)]) : Set.of();
                shapes.add(new TargetWorkload.Shape(1_000L * random.nextInt(12), gpus, milli, allowed, 1.0 / count));
            }
            FragmentationMeasure measure = new FragmentationMeasure(new TargetWorkload(shapes));
            int gpuCount = 1 << random.nextInt(4);
            int[] free = new int[gpuCount];
            for (int g = 0; g < gpuCount; g++) {
                free[g] = random.nextInt(3) == 0 ? 1000 : 10 * random.nextInt(101);
            }
            String model = models[random.nextInt(3)];
            long cpu = 1_000L * random.nextInt(12);
            assertThat(measure.of(model, cpu, free, gpuCount))
                    .as("trial %d", trial)
                    .isCloseTo(byDefinition(shapes, model, cpu, free), within(1e-9));
        }
    }

    /** docs/research/packing.md's F_n(M), one shape at a time. */
    private static double byDefinition(List<TargetWorkload.Shape> shapes, String model, long cpu, int[] free) {
        long idle = Arrays.stream(free).sum();
        double stranded = 0;
        for (TargetWorkload.Shape s : shapes) {
            long large = Arrays.stream(free).filter(g -> g >= s.gpuMilli()).count();
            long small = Arrays.stream(free).filter(g -> g < s.gpuMilli()).sum();
            boolean hostable = !s.cpuOnly() && s.allowsModel(model) && cpu >= s.cpuMilli() && large >= s.gpuCount();
            stranded += s.probability() * (hostable ? small : idle);
        }
        return stranded;
    }
}

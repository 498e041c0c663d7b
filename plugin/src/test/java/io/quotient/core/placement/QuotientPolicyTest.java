package io.quotient.core.placement;

import static io.quotient.core.placement.Clusters.cluster;
import static io.quotient.core.placement.Clusters.fraction;
import static io.quotient.core.placement.Clusters.node;
import static io.quotient.core.placement.Clusters.use;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three parts of {@link WasteForecast} and the choices they lead Quotient's policy to. */
class QuotientPolicyTest {

    // fractions of 470 and 810 and whole GPUs, equally often, 4 CPUs each
    private final TargetWorkload mix = new TargetWorkload(List.of(
            new TargetWorkload.Shape(4_000, 1, 470, Set.of(), 1),
            new TargetWorkload.Shape(4_000, 1, 810, Set.of(), 1),
            new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 1)));

    @Test
    void anEqualWorkloadGetsTheForecastAlreadyBuiltAndAnotherOneItsOwn() {
        TargetWorkload equalMix = new TargetWorkload(List.copyOf(mix.shapes()));
        TargetWorkload other = new TargetWorkload(List.of(new TargetWorkload.Shape(4_000, 1, 250, Set.of(), 1)));

        assertThat(WasteForecast.forWorkload(equalMix)).isSameAs(WasteForecast.forWorkload(mix));
        assertThat(WasteForecast.forWorkload(other)).isNotSameAs(WasteForecast.forWorkload(mix));
        assertThat(WasteForecast.forWorkload(other).of("T4", 64_000, new int[] {500}, 1))
                .isZero();
    }

    @Test
    void aGpuLeftWithRoomOnlyForRareSizesCountsAsIdle() {
        WasteForecast forecast = new WasteForecast(mix);
        // 190 free: no size fits; 530 free: a 470 leaves 60 that nothing fits
        assertThat(forecast.of("T4", 64_000, new int[] {190}, 1)).isCloseTo(190, within(1e-9));
        assertThat(forecast.of("T4", 64_000, new int[] {530}, 1)).isCloseTo(60, within(1e-9));
        // a free GPU: a third ends whole, a third as 190 left by an 810, a third as a 530 gap that ends at 60
        assertThat(forecast.of("T4", 64_000, new int[] {1000}, 1)).isCloseTo((0 + 190 + 60) / 3.0, within(1e-9));
        assertThat(forecast.of("T4", 64_000, new int[] {0}, 1)).isZero();
    }

    @Test
    void judgesAFractionRareAmongFractionsNotAmongWholeGpuJobs() {
        // 250 is a sixth of the fractional demand (common) but under 1 % of all GPU pods; 100 is 1.6 % of the fractions
        for (double wholeShare : new double[] {0.0, 0.97}) {
            WasteForecast forecast = new WasteForecast(new TargetWorkload(List.of(
                    new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), wholeShare),
                    new TargetWorkload.Shape(4_000, 1, 500, Set.of(), 0.025),
                    new TargetWorkload.Shape(4_000, 1, 250, Set.of(), 0.005),
                    new TargetWorkload.Shape(4_000, 1, 100, Set.of(), 0.0005))));
            assertThat(forecast.of("T4", 64_000, new int[] {250}, 1))
                    .as("whole share %s", wholeShare)
                    .isZero();
            assertThat(forecast.of("T4", 64_000, new int[] {100}, 1))
                    .as("whole share %s", wholeShare)
                    .isCloseTo(100, within(1e-9));
        }
    }

    @Test
    void weighsTheSizesThatMayLandOnAModelAsTheWholeWorkloadDoes() {
        // 600s and 350s are three to two in the workload, but the 600s pinned to B were mostly left out of it (the
        // rarer pairs of size and model); B's own pins would make it one 600 to four 350s
        WasteForecast forecast = new WasteForecast(new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 600, Set.of("A"), 0.5),
                new TargetWorkload.Shape(4_000, 1, 600, Set.of("B"), 0.1),
                new TargetWorkload.Shape(4_000, 1, 350, Set.of("B"), 0.4))));
        // 700 free on B: a 600 leaves 100 that nothing fits, two 350s fill it
        assertThat(forecast.of("B", 64_000, new int[] {700}, 1)).isCloseTo(100 * 0.6, within(1e-9));
        // which sizes may come stays the model's: no 350 lands on A, so 700 free there ends at 100
        assertThat(forecast.of("A", 64_000, new int[] {700}, 1)).isCloseTo(100, within(1e-9));
        // without pins the proportions are the workload's own
        WasteForecast unpinned = new WasteForecast(new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 600, Set.of(), 0.1),
                new TargetWorkload.Shape(4_000, 1, 350, Set.of(), 0.4))));
        assertThat(unpinned.of("B", 64_000, new int[] {700}, 1)).isCloseTo(100 * 0.2, within(1e-9));
    }

    @Test
    void countsIdleGpusThatLackTheCpuTheirJobsNeed() {
        WasteForecast forecast = new WasteForecast(mix);
        double enoughCpu = forecast.of("T4", 64_000, new int[] {1000, 1000}, 2);
        double littleCpu = forecast.of("T4", 3_000, new int[] {1000, 1000}, 2);
        assertThat(littleCpu).isGreaterThan(enoughCpu);
        // no shape fits 3 CPUs: everything idle is lost
        assertThat(littleCpu).isGreaterThanOrEqualTo(2000);
    }

    @Test
    void keepsWholeNodesForMultiGpuShapes() {
        WasteForecast forecast = new WasteForecast(new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 500, Set.of(), 1),
                new TargetWorkload.Shape(8_000, 4, 1000, Set.of(), 1))));
        double whole = forecast.of("A100", 64_000, new int[] {1000, 1000, 1000, 1000}, 4);
        double broken = forecast.of("A100", 64_000, new int[] {500, 1000, 1000, 1000}, 4);
        assertThat(broken - whole).isGreaterThan(500);
    }

    @Test
    void pairsAFractionWithTheGapItFillsBest() {
        // node 0 has a GPU with 530 free (a 470 fills it to 60), node 1 one with 810 free (a 470 leaves 340)
        ClusterState state = cluster(node("a", 1, "T4"), node("b", 1, "T4"));
        use(state, 0, 0, 470);
        use(state, 1, 0, 190);
        var a = PlacementPolicies.create("quotient", 1, mix)
                .place(state, fraction(470))
                .orElseThrow();
        assertThat(a.nodeIndex()).isZero();
    }

    @Test
    void keepsCpuOnlyPodsOffNodesWhoseIdleGpusNeedTheCpu() {
        ClusterState state = cluster(node("gpus-idle", 4, "T4"), node("gpus-busy", 4, "T4"));
        for (int g = 0; g < 4; g++) {
            use(state, 1, g, 1000);
        }
        var a = PlacementPolicies.create("quotient", 1, mix)
                .place(state, ResourceDemand.cpuOnly(60_000, 1_000))
                .orElseThrow();
        assertThat(a.nodeIndex()).isEqualTo(1);
    }

    @Test
    void countsTheCpuOnlyJobsCpuThatTheSpareCpuCannotHold() {
        // GPU jobs: 4 CPUs per GPU; CPU-only jobs as often as GPU jobs, 8 CPUs each
        TargetWorkload cpuHeavy = new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 1),
                new TargetWorkload.Shape(8_000, 0, 0, Set.of(), 1)));
        var dense = new NodeSpec("dense", 40_000, 256_000, 8, "G2", 16_384);
        var medium = new NodeSpec("medium", 80_000, 256_000, 8, "G2", 16_384);
        var roomy = new NodeSpec("roomy", 200_000, 256_000, 2, "T4", 16_384);
        List<NodeSpec> withRoomy = List.of(dense, medium, medium, roomy);
        List<NodeSpec> withoutRoomy = List.of(dense, medium, medium);
        // spare CPU: 8 + 48 + 48 + 192 = 296 CPUs for 8 CPUs of CPU-only jobs per GPU (208): it all fits
        assertThat(WasteForecast.excessCpuPerMilli(cpuHeavy, withRoomy)).isZero();
        // without the roomy node: 192 CPUs of CPU-only demand for 104 spare, 88 over 24,000 GPU milli
        assertThat(WasteForecast.excessCpuPerMilli(cpuHeavy, withoutRoomy)).isEqualTo(88.0 / 24, within(1e-9));
        // so on the dense node an idle GPU counts as short of CPU sooner: at 7.67 CPUs per GPU, not 4
        int[] idle = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
        assertThat(WasteForecast.forCluster(cpuHeavy, 0.03, withRoomy).of("G2", 40_000, idle, 8))
                .isZero();
        assertThat(WasteForecast.forCluster(cpuHeavy, 0.03, withoutRoomy).of("G2", 40_000, idle, 8))
                .isEqualTo(8_000 - 40_000 / (4 + 88.0 / 24), within(1e-6));
        // but never above the cluster's CPU per GPU (5 on a cluster of dense nodes): not every node looks short
        assertThat(WasteForecast.excessCpuPerMilli(cpuHeavy, List.of(dense, dense)))
                .isEqualTo(1.0, within(1e-9));
        assertThat(WasteForecast.forCluster(cpuHeavy, 0.03, List.of(dense, dense))
                        .of("G2", 40_000, idle, 8))
                .isZero();
    }

    @Test
    void aCpuLeanClusterTheServiceFittedTheWorkloadToHasNoExcess() {
        // 4 CPUs per GPU: the typical workload's GPU shapes are scaled down to it and rounded to whole CPU milli, which
        // left the cap on the excess a residue (5e-4 CPU milli per GPU milli) that switched the shortfall to its
        // CPU-short form: fractions then stopped sharing GPUs (FractionsIT caught it)
        var lean = new NodeSpec("lean", 16_000, 65_536, 4, "H100", 81_920);
        List<NodeSpec> nodes = List.of(lean, lean);
        TargetWorkload fitted = ClusterFittedWorkload.fit(TargetWorkload.typical(), nodes);
        assertThat(WasteForecast.excessCpuPerMilli(fitted, nodes)).isZero();
        ClusterState state = new ClusterState(nodes);
        var first = PlacementPolicies.create("quotient", 1, fitted)
                .place(state, fraction(300))
                .orElseThrow();
        state.allocate(first);
        var second = PlacementPolicies.create("quotient", 1, fitted)
                .place(state, fraction(300))
                .orElseThrow();
        assertThat(second.nodeIndex()).isEqualTo(first.nodeIndex());
        assertThat(second.gpuIndices()).isEqualTo(first.gpuIndices());
    }

    @Test
    void whereCpuIsShortCpuOnlyPodsTakeCpuWhereTheIdleGpusNeedItLeast() {
        // GPU jobs asking 4 and 12 CPUs per GPU; CPU-only jobs of 16 CPUs twice as often: more than the spare CPU holds
        TargetWorkload cpuHeavy = new TargetWorkload(List.of(
                new TargetWorkload.Shape(4_000, 1, 1000, Set.of(), 1),
                new TargetWorkload.Shape(12_000, 1, 1000, Set.of(), 1),
                new TargetWorkload.Shape(16_000, 0, 0, Set.of(), 2)));
        var fewIdle = new NodeSpec("few-idle", 80_000, 256_000, 8, "G2", 16_384);
        var manyIdle = new NodeSpec("many-idle", 80_000, 256_000, 8, "G2", 16_384);
        // 2 idle GPUs with 20 CPUs (10 per GPU: enough for the 4-CPU jobs) against 8 with 40 (5 per GPU: short for
        // both);
        // one CPU figure for all jobs calls both short and every core taken on either the same loss: a tie, which the
        // seeded node order breaks either way (spread seeds: java.util.Random's first draws of 1, 2, 3... agree)
        for (long seed = 1; seed <= 20; seed++) {
            ClusterState state = new ClusterState(List.of(fewIdle, manyIdle));
            state.allocate(new Allocation(0, new int[] {0, 1, 2, 3, 4, 5}, 1000, 60_000, 0));
            state.allocate(new Allocation(1, new int[0], 0, 40_000, 0));
            var placed = PlacementPolicies.create("quotient", seed * 0x9E3779B97F4A7C15L, cpuHeavy)
                    .place(state, ResourceDemand.cpuOnly(4_000, 1_000))
                    .orElseThrow();
            assertThat(placed.nodeIndex()).as("seed %d", seed).isZero();
        }
    }
}

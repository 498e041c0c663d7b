package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulator on a small synthetic cluster: determinism, bookkeeping, curve and report. */
class SimulatorTest {

    private static final List<NodeSpec> NODES = List.of(
            new NodeSpec("a", 32_000, 256_000, 8, "A100", 0), new NodeSpec("b", 32_000, 256_000, 8, "A100", 0),
            new NodeSpec("c", 16_000, 128_000, 4, "T4", 0), new NodeSpec("d", 16_000, 128_000, 4, "T4", 0));

    private static List<TracePod> trace() {
        Random random = new Random(1);
        List<TracePod> pods = new ArrayList<>();
        int[] fractions = {250, 470, 500, 810};
        for (int i = 0; i < 40; i++) {
            ResourceDemand d = switch (random.nextInt(4)) {
                case 0 -> ResourceDemand.gpus(2_000, 4_000, 1, fractions[random.nextInt(4)], Set.of());
                case 1 -> ResourceDemand.gpus(4_000, 8_000, 1, 1000, Set.of());
                case 2 -> ResourceDemand.gpus(8_000, 8_000, 2, 1000, Set.of("A100"));
                default -> ResourceDemand.cpuOnly(3_000, 4_000);
            };
            pods.add(new TracePod("pod-" + i, d));
        }
        return pods;
    }

    private final Simulator simulator = new Simulator(NODES, trace(), 1.3);

    @Test
    void aSeedAlwaysGivesTheSameRun() {
        for (String policy : List.of("random", "fgd", "quotient")) {
            RunResult first = simulator.run(policy, 42, Simulator.Progress.NONE);
            RunResult again = simulator.run(policy, 42, Simulator.Progress.NONE);
            assertThat(again.unallocatedGpuPctAt100()).isEqualTo(first.unallocatedGpuPctAt100());
            assertThat(again.scheduledPods()).isEqualTo(first.scheduledPods());
            assertThat(again.fragAmountPctAt100()).isEqualTo(first.fragAmountPctAt100());
        }
    }

    @Test
    void accountsForEveryPodAndKeepsFiguresInRange() {
        RunResult run = simulator.run("bestfit", 43, Simulator.Progress.NONE);
        List<TracePod> order = ArrivalOrder.of(trace(), 43, 24_000, 1.3);
        assertThat(run.scheduledPods() + run.failedPods()).isEqualTo(order.size());
        assertThat(run.unallocatedGpuPctAt100()).isBetween(0.0, 100.0);
        assertThat(run.fragAmountPctAt100()).isBetween(0.0, run.unallocatedGpuPctAt100() + 1e-9);
        assertThat(run.fragRatioPctAt100()).isBetween(0.0, 100.0 + 1e-9);
        Curve.Point start = run.curve().at(0);
        assertThat(start.unallocatedGpuPct()).isGreaterThan(90);
    }

    @Test
    void reportsProgressForEveryPod() {
        int[] calls = {0};
        int[] last = {0};
        RunResult run = simulator.run("fgd", 44, (seed, done, total) -> {
            calls[0]++;
            last[0] = done;
            assertThat(done).isLessThanOrEqualTo(total);
        });
        assertThat(calls[0]).isEqualTo(run.scheduledPods() + run.failedPods()).isEqualTo(last[0]);
    }

    @Test
    void reportAveragesSeedsAndSerialisesToTheDocumentedJson() throws Exception {
        SimulationReport report = simulator.simulate("quotient", List.of(42L, 43L), Simulator.Progress.NONE);
        double mean = (report.runs().get(0).unallocatedGpuPctAt100()
                        + report.runs().get(1).unallocatedGpuPctAt100())
                / 2;
        assertThat(report.mean().unallocatedGpuPctAt100()).isCloseTo(mean, within(1e-9));

        JsonNode json = new ObjectMapper().readTree(ReportFormats.json(report));
        assertThat(json.get("policy").asText()).isEqualTo("quotient");
        assertThat(json.get("nodes").asInt()).isEqualTo(4);
        assertThat(json.get("gpus").asInt()).isEqualTo(24);
        assertThat(json.get("pods").asInt()).isEqualTo(40);
        assertThat(json.get("runs")).hasSize(2);
        assertThat(json.get("runs").get(1).get("seed").asLong()).isEqualTo(43);
        for (String field : List.of(
                "unallocatedGpuPctAt100",
                "fragAmountPctAt100",
                "fragRatioPctAt100",
                "scheduledPods",
                "failedPods",
                "placementsPerSecond",
                "firstRefusalArrivedPct")) {
            assertThat(json.get("runs").get(0).has(field)).as(field).isTrue();
        }
        assertThat(json.get("mean").get("unallocatedGpuPctAt100").asDouble()).isCloseTo(mean, within(1e-3));
        JsonNode curve = json.get("curve");
        assertThat(curve.get(0).get("arrivedPct").asInt()).isZero();
        assertThat(curve.get(curve.size() - 1).get("arrivedPct").asInt()).isBetween(100, Curve.MAX_PCT);
        assertThat(curve.get(0).has("fragRatioPct")).isTrue();

        String text = ReportFormats.text(report);
        assertThat(text).contains("policy quotient").contains("mean").contains("arrived %");
    }

    @Test
    void reportsWhereTheFirstGpuPodWasRefusedAndNotACpuOnlyOne() throws Exception {
        // two whole GPUs and 4 cores: the CPU-only pod never fits, and the third GPU pod, arriving at 150 %, is refused
        List<NodeSpec> node = List.of(new NodeSpec("a", 4_000, 64_000, 2, "T4", 0));
        List<TracePod> pods = List.of(
                new TracePod("gpu-1", ResourceDemand.gpus(1_000, 1_000, 1, 1000, Set.of())),
                new TracePod("gpu-2", ResourceDemand.gpus(1_000, 1_000, 1, 1000, Set.of())),
                new TracePod("cpu", ResourceDemand.cpuOnly(8_000, 1_000)));
        SimulationReport report =
                new Simulator(node, pods, 1.3).simulate("fgd", List.of(1L, 2L), Simulator.Progress.NONE);
        for (RunResult run : report.runs()) {
            assertThat(run.refusedAny()).isTrue();
            assertThat(run.firstRefusalArrivedPct()).isEqualTo(150.0);
        }
        assertThat(report.mean().firstRefusalArrivedPct()).isEqualTo(150.0);
        assertThat(ReportFormats.text(report)).contains("1st refusal at").contains("150.00 %");
        JsonNode json = new ObjectMapper().readTree(ReportFormats.json(report));
        assertThat(json.get("runs").get(0).get("firstRefusalArrivedPct").asDouble())
                .isEqualTo(150.0);

        // arrivals stop at capacity: nothing refused, and neither the run nor the mean pretends otherwise
        SimulationReport full =
                new Simulator(node, pods.subList(0, 2), 1.0).simulate("fgd", List.of(1L), Simulator.Progress.NONE);
        assertThat(full.runs().get(0).refusedAny()).isFalse();
        assertThat(full.mean().firstRefusalArrivedPct()).isNaN();
        assertThat(ReportFormats.text(full)).contains("none");
        JsonNode none = new ObjectMapper().readTree(ReportFormats.json(full));
        assertThat(none.get("runs").get(0).get("firstRefusalArrivedPct").isNull())
                .isTrue();
        assertThat(none.get("mean").get("firstRefusalArrivedPct").isNull()).isTrue();
    }

    @Test
    void rejectsUnknownPoliciesBeforeSimulating() {
        assertThatThrownBy(() -> simulator.simulate("tetris", List.of(1L), Simulator.Progress.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("known policies");
        assertThatThrownBy(() -> new Simulator(NODES, trace(), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

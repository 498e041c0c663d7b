package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The long soak ({@code -Psoak}): one run per seed ({@code -Dquotient.soak.seeds=1,2,3}), each for
 * {@code -Dquotient.soak.duration} (default 30m) on {@code -Dquotient.soak.nodes} nodes (default 60), in a fresh
 * namespace with fresh nodes. Every run must keep every invariant, and over all runs each fault kind must have been
 * injected at least {@code -Dquotient.soak.minFaultsPerKind} times (default 5).
 */
@Tag("soak")
class LongSoakIT {

    @Test
    void longSoakOverSeveralSeedsKeepsEveryInvariant() throws Exception {
        ControlPlane plane = ControlPlane.shared();
        Path dir = Path.of(System.getProperty("quotient.soak.dir", "target/soak"));
        List<Long> seeds = Arrays.stream(
                        System.getProperty("quotient.soak.seeds", "1,2,3").split(","))
                .map(String::trim)
                .map(Long::parseLong)
                .toList();
        Map<String, Integer> faults = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (long seed : seeds) {
            try (TestNamespace namespace =
                            TestNamespace.create(plane.apiClient(), plane.serverMinorVersion(), "soak-" + seed);
                    FakeGpuNodes nodes = new FakeGpuNodes(plane.apiClient())) {
                SoakRun.Result result = new SoakRun(
                                SoakSettings.fromProperties(seed, dir),
                                plane,
                                namespace.name(),
                                nodes,
                                plane.fakeKubelet())
                        .run();
                result.verdict().figures().faultsByKind().forEach((kind, n) -> faults.merge(kind, n, Integer::sum));
                if (!result.verdict().violations().isEmpty() || result.harnessErrors() > 0) {
                    failures.add("seed " + seed + ": "
                            + result.verdict().violations().size() + " violation(s), "
                            + result.harnessErrors() + " harness error(s); history " + result.history() + "\n"
                            + ViolationTrace.of(
                                    result.history(), result.verdict().violations(), 80));
                }
            }
        }
        System.out.println("[soak] faults over " + seeds.size() + " seed(s): " + faults);
        assertThat(failures).as("runs with violations").isEmpty();
        int atLeast = Integer.getInteger("quotient.soak.minFaultsPerKind", 5);
        for (String kind : Faults.KINDS) {
            assertThat(faults.getOrDefault(kind, 0))
                    .as("faults of kind %s over all seeds", kind)
                    .isGreaterThanOrEqualTo(atLeast);
        }
    }
}

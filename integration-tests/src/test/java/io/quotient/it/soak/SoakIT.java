package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short soak (about three minutes, fixed seed): 40 two-GPU nodes, two replicas, four teams, operations and
 * faults for 100 s, then the reclaim deadline; nothing the invariants forbid may show in the API server. Part of
 * the normal {@code mvn verify} (it passed three consecutive runs here before it was let in).
 */
@RealKubernetes
class SoakIT {

    @Test
    void shortSoakWithFaultsKeepsEveryInvariant(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet) throws Exception {
        SoakSettings settings = SoakSettings.shortRun(Path.of(System.getProperty("quotient.soak.dir", "target/soak")));

        SoakRun.Result result = new SoakRun(settings, plane, namespace.name(), nodes, kubelet).run();

        assertThat(result.harnessErrors())
                .as("the harness's own calls failed; see %s", result.history())
                .isZero();
        List<String> violations = result.verdict().violations();
        assertThat(violations)
                .as(
                        "invariant violations of seed %d; history %s%n%s",
                        settings.seed(),
                        result.history(),
                        violations.isEmpty() ? "" : ViolationTrace.of(result.history(), violations, 80))
                .isEmpty();
        assertThat(result.verdict().figures().faultsByKind().values().stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .as("faults injected")
                .isGreaterThanOrEqualTo(3);
    }
}

package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobStatus;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a new leader's claim costs ({@code KubernetesJobRecordStore.claimForTerm}: every live GpuJob rewritten before
 * the first decision): 600 live records (the long soak's most; 400 waiting, 200 placed) and 100 finished ones, claimed
 * by stores rewriting 1, 4, 8, 16 and 32 at a time, twice each, on the test plane (API server, etcd, controllers and
 * this JVM on the machine's cores). Run: mvn -pl plugin,integration-tests verify -Dtest=NONE
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ClaimBenchmarkIT -Dsurefire.excludedGroups=none.
 */
@Tag("benchmark")
@RealKubernetes
class ClaimBenchmarkIT {

    private static final int WAITING = 400;
    private static final int PLACED = 200;
    private static final int FINISHED = 100;
    private static final int[] WRITERS = {1, 4, 8, 16, 32};
    private static final int ROUNDS = 2;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void claimTimeOf600LiveRecordsByWriters(ControlPlane plane, TestNamespace namespace) throws Exception {
        try (AdapterFixture writer = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name())) {
            JobStatus placed = JobStatus.placed(
                    "node-1",
                    List.of(new GpuBinding(0, null, 1)),
                    QuotaState.IN_QUOTA,
                    Instant.parse("2026-11-27T10:00:00Z"));
            for (int i = 0; i < WAITING + PLACED + FINISHED; i++) {
                var record = AdapterFixture.wholeGpuRecord("team-" + (i % 4), "j" + i, 1);
                writer.store.create(
                        i < WAITING
                                ? record
                                : i < WAITING + PLACED
                                        ? record.withStatus(placed)
                                        : record.withStatus(placed.withPhase(JobPhase.SUCCEEDED, "completed")));
            }
        }
        for (int round = 1; round <= ROUNDS; round++) {
            for (int writers : WRITERS) {
                try (AdapterFixture claiming =
                        new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name(), writers)) {
                    long started = System.nanoTime();
                    int claimed = claiming.store.claimForTerm("bench-" + round + "-" + writers);
                    double seconds = (System.nanoTime() - started) / 1e9;
                    System.out.printf(
                            "[benchmark] claim of %d live records (%d finished left alone), %2d writers,"
                                    + " round %d: %.2f s, %.1f ms a record%n",
                            claimed, FINISHED, writers, round, seconds, seconds * 1000 / claimed);
                    assertThat(claimed).isEqualTo(WAITING + PLACED);
                }
            }
        }
    }
}

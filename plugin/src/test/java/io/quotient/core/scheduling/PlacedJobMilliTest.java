package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The GPU milli a placed job holds, kept with it: every replica counted, and never out of step with its GPUs. */
class PlacedJobMilliTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aGangHoldsTheGpusOfEveryReplica() {
        PlacedJob gang = new PlacedJob(
                ClusterRun.gang("team-a", "g", 3, 3, 2),
                "node-1",
                List.of(0, 1),
                1000,
                QuotaState.IN_QUOTA,
                START,
                List.of(new PlacedJob.Replica("node-2", List.of(0, 1)), new PlacedJob.Replica("node-3", List.of(4))));

        assertThat(gang.gpuMilli()).isEqualTo(5000);
        assertThat(gang.withQuotaState(QuotaState.OVER_QUOTA).gpuMilli()).isEqualTo(5000);
    }

    @Test
    void aFractionHoldsItsShareOfEachGpu() {
        PlacedJob fraction = new PlacedJob(
                ClusterRun.job("team-a", "f", 1), "node-1", List.of(2), 250, QuotaState.OVER_QUOTA, START);

        assertThat(fraction.gpuMilli()).isEqualTo(250);
    }

    @Test
    void aMilliOutOfStepWithTheGpusHeldIsRefused() {
        assertThatThrownBy(() -> new PlacedJob(
                        ClusterRun.job("team-a", "w", 2),
                        "node-1",
                        List.of(0, 1),
                        1000,
                        QuotaState.IN_QUOTA,
                        START,
                        List.of(),
                        1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gpuMilli 1000 of job team-a/w");
    }
}

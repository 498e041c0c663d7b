package io.quotient.core.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The GPU memory a placed job reserves ({@link JobAllocation#reservedMemoryMib}), what the enforcer holds for it. */
class JobAllocationTest {

    private static final NodeSpec L4 = new NodeSpec("n", 64_000, 256_000, 2, "NVIDIA L4", 24576);

    private static PlacedJob placed(String name, GpuRequest gpu, int milliPerGpu, List<Integer> gpus) {
        JobSpec spec = new JobSpec(new JobId("team-a", name), gpu, 1000, 1024, Set.of(), 0, true, Duration.ZERO);
        return new PlacedJob(spec, "n", gpus, milliPerGpu, QuotaState.IN_QUOTA, Instant.EPOCH);
    }

    @Test
    void aMibJobReservesWhatItAskedNotItsShareRoundedUp() {
        // 8192 of 24576 MiB is charged 334 thousandths, which would reserve 8208.4 MiB; three such jobs 24625 MiB,
        // more than the GPU has
        PlacedJob job = placed("a", new GpuRequest.Memory(8192, 8192, 1), 334, List.of(0));
        JobAllocation a = JobAllocation.of(job, Map.of("n", L4));
        assertThat(a.reservedMemoryMib()).isEqualTo(8192.0);
        assertThat(3 * a.reservedMemoryMib()).isLessThanOrEqualTo(L4.gpuMemoryMib());
        assertThat(a.gpus()).isEqualTo(0.334);
    }

    @Test
    void aMibJobOnTwoGpusReservesItsMibOnEach() {
        PlacedJob job = placed("b", new GpuRequest.Memory(5000, 6000, 2), 204, List.of(0, 1));
        assertThat(JobAllocation.of(job, Map.of("n", L4)).reservedMemoryMib()).isEqualTo(10_000.0);
    }

    @Test
    void aFractionReservesItsShareOfTheGpu() {
        PlacedJob job = placed("c", new GpuRequest.Fraction(250, 250, 1), 250, List.of(1));
        assertThat(JobAllocation.of(job, Map.of("n", L4)).reservedMemoryMib()).isEqualTo(6144.0);
    }
}

package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import io.quotient.core.request.RequestException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A team's own limits on a new job (issue 31): its lower maximum minimum runtime, its maxGpus, its guarantee. */
class TeamLimitsTest {

    private static final List<NodeSpec> NO_NODES = List.of();
    private static final Team CAPPED = new Team(
            "team-a", 2000, 4000, 1, 0, WithinTeamPreemption.LOWER_PRIORITY, true, null, Duration.ofMinutes(10));

    @Test
    void aTeamsLowerMinimumRuntimeIsEnforced() {
        assertThatCode(() -> TeamLimits.check(job(1, 1, Duration.ofMinutes(10)), CAPPED, NO_NODES))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> TeamLimits.check(job(1, 1, Duration.ofSeconds(601)), CAPPED, NO_NODES))
                .isInstanceOf(RequestException.class)
                .hasMessage("minRuntimeSeconds: is 601; at most 600 seconds are allowed for team team-a: a minimum"
                        + " runtime keeps a job on GPUs it may have borrowed, and their owner must get them back;"
                        + " checkpoint at least that often and ask for at most 600");
    }

    @Test
    void aJobAloneBeyondTheTeamsMaximumIsRefusedNamingTheLimit() {
        assertThatCode(() -> TeamLimits.check(job(4, 1, Duration.ZERO), CAPPED, NO_NODES))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> TeamLimits.check(job(5, 1, Duration.ZERO), CAPPED, NO_NODES))
                .hasMessageStartingWith(
                        "gpu.count: the job asks for 5.0 GPUs, but team team-a may hold at most 4.0" + " (maxGpus)");
        assertThatThrownBy(() -> TeamLimits.check(job(2, 3, Duration.ZERO), CAPPED, NO_NODES))
                .hasMessageStartingWith("replicas: the job asks for 6.0 GPUs");
        assertThatCode(() -> TeamLimits.check(job(500, 1, Duration.ZERO), Team.of("team-a", 2), NO_NODES))
                .doesNotThrowAnyException();
    }

    /** Non-preemptible jobs run only within the guarantee: one asking for more could never run. */
    @Test
    void aNonPreemptibleJobBeyondTheTeamsGuaranteeIsRefused() {
        assertThatCode(() -> TeamLimits.check(job(new GpuRequest.WholeGpus(2), 1, false), CAPPED, NO_NODES))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> TeamLimits.check(job(new GpuRequest.WholeGpus(1), 3, false), CAPPED, NO_NODES))
                .isInstanceOf(RequestException.class)
                .hasMessageStartingWith(
                        "preemptible: is false, and the job asks for 3.0 GPUs, but team team-a is" + " guaranteed 2.0");
        assertThatThrownBy(
                        () -> TeamLimits.check(job(new GpuRequest.Fraction(500, 500, 5), 1, false), CAPPED, NO_NODES))
                .hasMessageStartingWith("preemptible: is false, and the job asks for 2.5 GPUs");
        // preemptible, the same job may borrow up to maxGpus; a MiB request no GPU holds is left to the scheduler
        assertThatCode(() -> TeamLimits.check(job(new GpuRequest.WholeGpus(1), 3, true), CAPPED, NO_NODES))
                .doesNotThrowAnyException();
        assertThatCode(() ->
                        TeamLimits.check(job(new GpuRequest.Memory(80_000, 80_000, 8), 1, false), CAPPED, NO_NODES))
                .doesNotThrowAnyException();
    }

    /**
     * A MiB request is counted on the cluster's GPUs: 3 whole 80 GB GPUs' memory beyond maxGpus 4 waited for ever
     * (202) where the same as a fraction was refused.
     */
    @Test
    void aMibRequestIsCountedOnTheLargestGpusOfTheClusterThatHoldIt() {
        List<NodeSpec> nodes = List.of(
                new NodeSpec("small", 64_000, 512_000, 8, "A100-SXM4-40GB", 40_960),
                new NodeSpec("large", 64_000, 512_000, 8, "A100-SXM4-80GB", 81_920));
        assertThatThrownBy(
                        () -> TeamLimits.check(job(new GpuRequest.Memory(81_920, 81_920, 5), 1, true), CAPPED, nodes))
                .isInstanceOf(RequestException.class)
                .hasMessageStartingWith("gpuDevices: the job asks for 5.0 GPUs (81920 MiB on each of 5, counted on the"
                        + " largest GPUs of the cluster that hold it), but team team-a may hold at most 4.0 (maxGpus)");
        assertThatThrownBy(
                        () -> TeamLimits.check(job(new GpuRequest.Memory(61_440, 61_440, 3), 1, false), CAPPED, nodes))
                .hasMessageStartingWith("preemptible: is false, and the job asks for 2.25 GPUs");
        // half of a large GPU on 8: 4 GPUs, within maxGpus (on the small ones it would be 8)
        assertThatCode(() -> TeamLimits.check(job(new GpuRequest.Memory(40_960, 40_960, 8), 1, true), CAPPED, nodes))
                .doesNotThrowAnyException();
        // no GPU of the cluster holds 90000 MiB: it waits as Unschedulable, a larger GPU may come
        assertThatCode(() -> TeamLimits.check(job(new GpuRequest.Memory(90_000, 90_000, 8), 1, false), CAPPED, nodes))
                .doesNotThrowAnyException();
    }

    private static JobSpec job(int gpus, int replicas, Duration minRuntime) {
        return job(new GpuRequest.WholeGpus(gpus), replicas, true, minRuntime);
    }

    private static JobSpec job(GpuRequest gpu, int replicas, boolean preemptible) {
        return job(gpu, replicas, preemptible, Duration.ZERO);
    }

    private static JobSpec job(GpuRequest gpu, int replicas, boolean preemptible, Duration minRuntime) {
        return new JobSpec(
                new JobId("team-a", "j"), gpu, 0, 0, Set.of(), 0, preemptible, minRuntime, Gang.of(replicas));
    }
}

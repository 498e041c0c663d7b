package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What evicting jobs frees for a MiB request ({@link NodeRoom}): counted exactly, so that an eviction that frees
 * just the memory asked is found, where shares rounded to thousandths would miss it by one.
 */
class MibReclaimRoomTest {

    private static final NodeSpec L4 = new NodeSpec("n", 64_000, 256_000, 1, "NVIDIA L4", 24576);

    private static ResourceDemand mib(long mib) {
        return new ResourceDemand(1000, 1024, 1, 0, mib, Set.of());
    }

    /** Places the job on GPU 0 as the scheduler would and returns what it holds. */
    private static Workspace.Held hold(ClusterState state, String name, GpuRequest gpu) {
        PlacedJob job = new PlacedJob(
                Scenario.spec("team-b", name, gpu, 0),
                "n",
                List.of(0),
                Demands.of(Scenario.spec("team-b", name, gpu, 0)).milliOn(L4),
                QuotaState.IN_QUOTA,
                Instant.EPOCH);
        Allocation a = Demands.allocationOf(job, job.replicas().get(0), 0);
        state.allocate(a);
        return new Workspace.Held(job, a, 0);
    }

    @Test
    void evictingAFractionFreesExactlyTheMibAsked() {
        // two 8192 MiB jobs and a 0.333 fraction (8183.808 MiB) leave 8.192 MiB: evicting the fraction frees
        // 8192 MiB, what an 8192 MiB request takes, and not one MiB more (in thousandths: 333 + 0 free < 334)
        ClusterState state = new ClusterState(List.of(L4));
        hold(state, "a", new GpuRequest.Memory(8192, 8192, 1));
        hold(state, "b", new GpuRequest.Memory(8192, 8192, 1));
        Workspace.Held fraction = hold(state, "c", new GpuRequest.Fraction(333, 333, 1));
        assertThat(state.fits(0, mib(8192))).isFalse();
        assertThat(NodeRoom.fitsWithout(state, 0, List.of(fraction), mib(8192))).isTrue();
        assertThat(NodeRoom.fitsWithout(state, 0, List.of(fraction), mib(8193))).isFalse();
        assertThat(NodeRoom.mustFree(state, 0, mib(8192))).isEqualTo(333);
    }

    @Test
    void evictingAMibJobFreesItsMemoryNotItsRoundedShare() {
        ClusterState state = new ClusterState(List.of(L4));
        Workspace.Held a = hold(state, "a", new GpuRequest.Memory(8192, 8192, 1));
        hold(state, "b", new GpuRequest.Memory(8192, 8192, 1));
        hold(state, "c", new GpuRequest.Memory(8192, 8192, 1));
        assertThat(NodeRoom.fitsWithout(state, 0, List.of(a), mib(8192))).isTrue();
        assertThat(NodeRoom.fitsWithout(state, 0, List.of(a), mib(8193))).isFalse();
        state.release(a.here());
        assertThat(state.fits(0, mib(8192))).isTrue();
        assertThat(state.fits(0, mib(8193))).isFalse();
    }
}

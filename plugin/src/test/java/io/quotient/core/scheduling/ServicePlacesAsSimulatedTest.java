package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The service places a job where the policy that the simulator measures places it: the number users get is the number
 * the packing benchmark publishes. Checked decision by decision, including the decisions where the policy opens a fresh
 * GPU although a shared one has room: an override that sent fractions to shared GPUs first (the service had one) would
 * change exactly those, and it cost 0.3-1.1 point more idle GPUs on the fraction-heavy traces.
 */
class ServicePlacesAsSimulatedTest {

    /** The openb trace's common fraction sizes, as often as they come there (roughly). */
    private static final int[] SHARES = {810, 810, 810, 470, 470, 470, 470, 320, 320, 650};

    /** The workload both the scheduler and the simulated policy expect: those sizes with a core each. */
    private static final TargetWorkload FRACTIONS = tracesFractions();

    private static TargetWorkload tracesFractions() {
        List<ResourceDemand> demands = new ArrayList<>();
        for (int share : SHARES) {
            demands.add(ResourceDemand.gpus(1000, 512, 1, share, Set.of()));
        }
        return TargetWorkload.fromDemands(demands);
    }

    @Test
    void everyFractionLandsOnTheNodeAndGpuThePolicyChooses() {
        int freshWhileSharedHadRoom = 0;
        for (long seed = 1; seed <= 5; seed++) {
            freshWhileSharedHadRoom += deployRandomFractions(seed);
        }
        assertThat(freshWhileSharedHadRoom)
                .as("decisions that open a fresh GPU although a shared one has room")
                .isPositive();
    }

    /** Deploys 16 fractions drawn with the seed; returns how many opened a fresh GPU while a shared one had room. */
    private static int deployRandomFractions(long seed) {
        List<NodeSpec> nodes = ClusterRun.nodes(4, 4);
        ClusterRun run = new ClusterRun(new QuotaScheduler(QuotaScheduler.DEFAULT_POLICY, 42, FRACTIONS), nodes)
                .team("team-a", 16);
        TargetWorkload fitted = new ClusterFittedWorkload(FRACTIONS).forNodes(nodes);
        Random random = new Random(seed);
        int freshWhileSharedHadRoom = 0;
        for (int i = 0; i < 16; i++) {
            JobSpec job = ClusterRun.fraction("team-a", "f" + i, SHARES[random.nextInt(SHARES.length)]);
            ClusterState state = Workspace.of(run.snapshot()).state();
            ResourceDemand demand = Demands.of(job);
            PlacementPolicy simulated = PlacementPolicies.create(QuotaScheduler.DEFAULT_POLICY, 42, fitted);
            Allocation expected = simulated.place(state, demand).orElseThrow();
            int expectedGpu = expected.gpuIndices()[0];

            run.deploy(job);

            PlacedJob placed = run.placement("team-a", "f" + i);
            assertThat(placed.node())
                    .as("seed %d: node of f%d", seed, i)
                    .isEqualTo(nodes.get(expected.nodeIndex()).name());
            assertThat(placed.gpuIndices()).as("seed %d: GPU of f%d", seed, i).containsExactly(expectedGpu);
            if (state.gpuFree(expected.nodeIndex(), expectedGpu) == ResourceDemand.WHOLE
                    && sharedGpuWithRoom(state, demand.gpuMilli())) {
                freshWhileSharedHadRoom++;
            }
        }
        run.checkNothingOverAllocated();
        return freshWhileSharedHadRoom;
    }

    private static boolean sharedGpuWithRoom(ClusterState state, int milli) {
        for (int node = 0; node < state.nodeCount(); node++) {
            for (int gpu = 0; gpu < state.gpuCount(node); gpu++) {
                int free = state.gpuFree(node, gpu);
                if (free < ResourceDemand.WHOLE && free >= milli) {
                    return true;
                }
            }
        }
        return false;
    }
}

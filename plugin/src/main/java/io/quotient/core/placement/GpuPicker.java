package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Arrays;

/** Chooses which GPUs of a chosen node a demand takes. */
final class GpuPicker {

    private GpuPicker() {}

    /**
     * The demand's GPUs: those with the least free capacity that still hold its share exactly
     * ({@link ClusterState#holds}; best fit inside the node), lowest index first among equals; {@code null} when
     * fewer than its count fit. Taking the fullest GPUs keeps the emptiest ones whole for later, larger demands.
     */
    static int[] tightest(ClusterState state, int node, ResourceDemand demand) {
        int count = demand.gpuCount();
        int gpus = state.gpuCount(node);
        int[] chosen = new int[count];
        int found = 0;
        boolean[] taken = new boolean[gpus];
        while (found < count) {
            int best = -1;
            for (int g = 0; g < gpus; g++) {
                long free = state.gpuFreeUnits(node, g);
                if (!taken[g] && state.holds(node, g, demand) && (best < 0 || free < state.gpuFreeUnits(node, best))) {
                    best = g;
                }
            }
            if (best < 0) {
                return null;
            }
            taken[best] = true;
            chosen[found++] = best;
        }
        Arrays.sort(chosen);
        return chosen;
    }
}

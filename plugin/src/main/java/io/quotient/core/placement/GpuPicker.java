package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import java.util.Arrays;

/** Chooses which GPUs of a chosen node a demand takes. */
final class GpuPicker {

    private GpuPicker() {}

    /**
     * The {@code count} GPUs with the least free share that still hold {@code milli} (best fit inside
     * the node), lowest index first among equals; {@code null} when fewer than {@code count} fit.
     * Taking the fullest GPUs keeps the emptiest ones whole for later, larger demands.
     */
    static int[] tightest(ClusterState state, int node, int milli, int count) {
        int gpus = state.gpuCount(node);
        int[] chosen = new int[count];
        int found = 0;
        boolean[] taken = new boolean[gpus];
        while (found < count) {
            int best = -1;
            for (int g = 0; g < gpus; g++) {
                int free = state.gpuFree(node, g);
                if (!taken[g] && free >= milli && (best < 0 || free < state.gpuFree(node, best))) {
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

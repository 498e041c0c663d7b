package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.placement.PlacementPolicy;

/**
 * The nodes a job that shares a GPU may land on: those whose enforcer is ready for shared GPUs (a share is only
 * safe where something kills a process over its limit). Whole-GPU jobs may land anywhere.
 */
final class FractionReadyNodes {

    /** Per node index of the round's cluster, whether its enforcer is ready. */
    private final boolean[] ready;

    private FractionReadyNodes(boolean[] ready) {
        this.ready = ready;
    }

    static FractionReadyNodes of(SchedulingSnapshot snapshot, ClusterState state) {
        boolean[] ready = new boolean[state.nodeCount()];
        for (int n = 0; n < ready.length; n++) {
            ready[n] = snapshot.fractionReadyNodes().contains(state.node(n).name());
        }
        return new FractionReadyNodes(ready);
    }

    /** The nodes the job may land on. */
    PlacementPolicy.NodeFilter filterFor(JobSpec job) {
        return Demands.sharesGpu(job) ? (s, n) -> ready[n] : PlacementPolicy.NodeFilter.ANY;
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;

/**
 * Per candidate index of one node, what the candidates from there on hold on the node (GPU capacity in exact units,
 * {@link io.quotient.core.cluster.GpuUnits}, so that MiB shares are not over- or under-counted; CPU milli; memory): the most that taking them all could free there. An eviction-only search ({@link ReclaimSearch}) cuts a
 * branch once even that would leave the demand beyond the node's capacity.
 */
final class CandidatesLeft {

    private final int node;
    private final ResourceDemand demand;
    private final long gpuNeeded;
    private final long[] gpu;
    private final long[] cpu;
    private final long[] memory;

    CandidatesLeft(Workspace ws, NodeCandidates candidates, ResourceDemand demand) {
        this.node = candidates.node();
        this.demand = demand;
        int count = candidates.jobs().size();
        gpu = new long[count + 1];
        cpu = new long[count + 1];
        memory = new long[count + 1];
        NodeSpec spec = ws.state().node(node);
        for (int i = count - 1; i >= 0; i--) {
            Allocation held = candidates.jobs().get(i).here();
            gpu[i] = gpu[i + 1] + held.gpuIndices().length * held.unitsPerGpu(spec);
            cpu[i] = cpu[i + 1] + held.cpuMilli();
            memory[i] = memory[i + 1] + held.memoryMib();
        }
        gpuNeeded = demand.needsGpu() ? demand.gpuCount() * demand.unitsOn(spec) : 0;
    }

    /** Whether the demand stays beyond the node's capacity even if every candidate from {@code index} on left it. */
    boolean outOfReach(ClusterState state, int index) {
        return state.gpuFreeUnitsOnNode(node) + gpu[index] < gpuNeeded
                || state.freeCpu(node) + cpu[index] < demand.cpuMilli()
                || state.freeMemory(node) + memory[index] < demand.memoryMib();
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.GpuUnits;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What a node could give a demand, computed aside (the state is not touched): the reclaim search's cheap bounds. */
final class NodeRoom {

    private NodeRoom() {}

    /** Whether the demand would fit the node if all the jobs left it (computed aside: the state is not touched). */
    static boolean fitsWithout(Workspace ws, int node, List<PlacedJob> jobs, ResourceDemand demand) {
        List<Workspace.Held> held = new ArrayList<>(jobs.size());
        for (PlacedJob j : jobs) {
            held.add(new Workspace.Held(
                    j,
                    ws.allocationOn(j.id(), node).orElseThrow(),
                    ws.reclaimable().teamIndex(j.spec().team())));
        }
        return fitsWithout(ws.state(), node, held, demand);
    }

    /** {@link #fitsWithout(Workspace, int, List, ResourceDemand)} with what each job holds on the node at hand. */
    static boolean fitsWithout(ClusterState state, int node, List<Workspace.Held> jobs, ResourceDemand demand) {
        long cpu = state.freeCpu(node);
        long memory = state.freeMemory(node);
        NodeSpec spec = state.node(node);
        long[] free = new long[state.gpuCount(node)];
        state.copyGpuFreeUnits(node, free);
        for (Workspace.Held j : jobs) {
            Allocation a = j.here();
            cpu += a.cpuMilli();
            memory += a.memoryMib();
            long units = a.unitsPerGpu(spec);
            for (int g : a.gpuIndices()) {
                free[g] += units;
            }
        }
        if (cpu < demand.cpuMilli() || memory < demand.memoryMib()) {
            return false;
        }
        if (!demand.needsGpu()) {
            return true;
        }
        long share = demand.unitsOn(spec);
        int enough = 0;
        for (long f : free) {
            enough += f >= share ? 1 : 0;
        }
        return enough >= demand.gpuCount();
    }

    /**
     * GPU milli that must be freed at least: the demand's GPUs need their share each, at best on the freest GPUs.
     * Counted exactly in units and rounded down, so a bound that never exceeds what a fitting set of victims frees
     * (each victim's milli covers what it takes).
     */
    static long mustFree(ClusterState state, int node, ResourceDemand demand) {
        if (!demand.needsGpu()) {
            return 0;
        }
        NodeSpec spec = state.node(node);
        long share = demand.unitsOn(spec);
        long[] free = new long[state.gpuCount(node)];
        state.copyGpuFreeUnits(node, free);
        Arrays.sort(free);
        long lacking = 0;
        for (int i = 0; i < demand.gpuCount() && i < free.length; i++) {
            lacking += Math.max(0, share - free[free.length - 1 - i]);
        }
        return lacking / GpuUnits.perMilli(spec);
    }
}

package io.quotient.core.usage;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.util.Map;
import java.util.Objects;

/**
 * What a placed job holds at one instant: {@code gpus} (whole and fractional shares, every replica) on
 * {@code devices} GPUs, in quota or borrowed, and the GPU memory that share reserves.
 */
public record JobAllocation(JobId job, double gpus, int devices, QuotaState quotaState, double reservedMemoryMib) {

    public JobAllocation {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(quotaState, "quotaState");
    }

    /**
     * The allocation of a placement; memory from each replica's node (0 for a node no longer known). A MiB request
     * reserves the MiB it asked for on each GPU, not its share rounded up to thousandths of the GPU (which would
     * exceed the request, and summed over a GPU's sharers its memory).
     */
    public static JobAllocation of(PlacedJob placed, Map<String, NodeSpec> nodes) {
        double memory = 0;
        int devices = 0;
        long mib = Demands.mibPerGpu(placed.spec());
        for (PlacedJob.Replica replica : placed.replicas()) {
            devices += replica.gpuIndices().size();
            NodeSpec node = nodes.get(replica.node());
            long gpuMemory = node == null ? 0 : node.gpuMemoryMib();
            double perGpu = mib > 0 && gpuMemory > 0 ? mib : placed.milliPerGpu() / 1000.0 * gpuMemory;
            memory += replica.gpuIndices().size() * perGpu;
        }
        return new JobAllocation(placed.id(), placed.gpuMilli() / 1000.0, devices, placed.quotaState(), memory);
    }
}

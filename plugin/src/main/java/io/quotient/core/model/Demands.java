package io.quotient.core.model;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Collection;

/** What a job needs from one node, in the placement policies' terms. */
public final class Demands {

    private Demands() {}

    public static ResourceDemand of(JobSpec job) {
        GpuRequest gpu = job.gpu();
        if (gpu instanceof GpuRequest.WholeGpus w) {
            return ResourceDemand.gpus(
                    job.cpuMilli(), job.memoryMib(), w.count(), ResourceDemand.WHOLE, job.allowedModels());
        }
        if (gpu instanceof GpuRequest.Fraction f) {
            return ResourceDemand.gpus(job.cpuMilli(), job.memoryMib(), f.devices(), f.milli(), job.allowedModels());
        }
        if (gpu instanceof GpuRequest.Memory m) {
            return new ResourceDemand(job.cpuMilli(), job.memoryMib(), m.devices(), 0, m.mib(), job.allowedModels());
        }
        return ResourceDemand.cpuOnly(job.cpuMilli(), job.memoryMib());
    }

    /** The MiB a job takes from each of its GPUs when it asks for GPU memory; 0 for fractions and whole GPUs. */
    public static long mibPerGpu(JobSpec job) {
        return job.gpu() instanceof GpuRequest.Memory m ? m.mib() : 0;
    }

    /**
     * What a placed job holds on one replica's node, at {@code nodeIndex} of a cluster state: its share of each of
     * the replica's GPUs (with its MiB, so that the state counts them exactly), its CPU and memory.
     */
    public static Allocation allocationOf(PlacedJob job, PlacedJob.Replica replica, int nodeIndex) {
        return new Allocation(
                nodeIndex,
                replica.gpuIndices().stream().mapToInt(Integer::intValue).toArray(),
                job.milliPerGpu(),
                job.spec().cpuMilli(),
                job.spec().memoryMib(),
                mibPerGpu(job.spec()));
    }

    /** Fractions and MiB share a GPU with other jobs, so they need a node whose enforcer is ready. */
    public static boolean sharesGpu(JobSpec job) {
        return job.gpu() instanceof GpuRequest.Fraction || job.gpu() instanceof GpuRequest.Memory;
    }

    /**
     * The GPU milli the job would hold at least, over the nodes given (MiB requests depend on the node's GPU memory);
     * used for quota checks before a node is chosen. A MiB request no node can hold counts as its device count
     * of whole GPUs.
     */
    public static long leastMilli(JobSpec job, Collection<NodeSpec> nodes) {
        // a gang counts whole for quotas: every replica it needs at least
        return job.gang().minReplicas() * leastMilliPerReplica(job, nodes);
    }

    private static long leastMilliPerReplica(JobSpec job, Collection<NodeSpec> nodes) {
        if (job.gpu() instanceof GpuRequest.WholeGpus w) {
            // whole GPUs count the same on every node; no demand built (fair shares ask this of every waiting job)
            return (long) w.count() * ResourceDemand.WHOLE;
        }
        ResourceDemand demand = of(job);
        if (!demand.needsGpu()) {
            return 0;
        }
        if (demand.gpuMemoryMib() <= 0) {
            return (long) demand.gpuCount() * demand.gpuMilli();
        }
        long least = (long) demand.gpuCount() * ResourceDemand.WHOLE;
        for (NodeSpec node : nodes) {
            if (node.gpuCount() > 0
                    && demand.allowsModel(node.gpuModel())
                    && demand.milliOn(node) <= ResourceDemand.WHOLE) {
                least = Math.min(least, demand.totalMilliOn(node));
            }
        }
        return least;
    }
}

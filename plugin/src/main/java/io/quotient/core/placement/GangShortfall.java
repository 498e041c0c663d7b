package io.quotient.core.placement;

import io.quotient.core.cluster.ResourceDemand;

/**
 * Why a gang cannot be placed now, with the numbers: it needs {@code nodesNeeded} nodes that each fit one replica,
 * and the best GPU model offers only {@code nodesThatFit}.
 *
 * @param model the GPU model with the most fitting nodes; empty when the replicas may mix models or need no GPU
 */
public record GangShortfall(ResourceDemand perReplica, int nodesNeeded, int nodesThatFit, String model) {

    /** E.g. "needs 4 nodes with 8 free NVIDIA-A100 GPUs each, 2 have them". */
    public String describe() {
        StringBuilder text = new StringBuilder("needs ")
                .append(nodesNeeded)
                .append(nodesNeeded == 1 ? " node" : " nodes")
                .append(" with ");
        if (perReplica.needsGpu()) {
            text.append(perReplica.gpuCount()).append(" free ");
            if (!model.isEmpty()) {
                text.append(model).append(' ');
            }
            text.append(perReplica.gpuCount() == 1 ? "GPU" : "GPUs");
            if (perReplica.gpuMemoryMib() > 0) {
                text.append(" of ").append(perReplica.gpuMemoryMib()).append(" MiB");
            } else if (perReplica.gpuMilli() < ResourceDemand.WHOLE) {
                text.append(" of ").append(perReplica.gpuMilli() / 1000.0);
            }
            text.append(perReplica.gpuCount() == 1 ? "" : " each");
        } else {
            text.append(perReplica.cpuMilli() / 1000.0).append(" free CPUs");
        }
        return text.append(", ")
                .append(nodesThatFit)
                .append(nodesThatFit == 1 ? " has" : " have")
                .append(" them")
                .toString();
    }
}

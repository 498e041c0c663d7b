package io.quotient.enforcer.core;

import java.util.List;

/**
 * Everything one enforcement cycle decides on: GPUs, their attributed processes, managed containers,
 * and the node's pods as the cycle saw them (for the usage report).
 */
public record NodeSnapshot(
        GpuSample gpus, List<ObservedProcess> processes, List<ManagedContainer> managed, List<PodInfo> pods) {

    public NodeSnapshot {
        processes = List.copyOf(processes);
        managed = List.copyOf(managed);
        pods = List.copyOf(pods);
    }

    public NodeSnapshot(GpuSample gpus, List<ObservedProcess> processes, List<ManagedContainer> managed) {
        this(gpus, processes, managed, List.of());
    }
}

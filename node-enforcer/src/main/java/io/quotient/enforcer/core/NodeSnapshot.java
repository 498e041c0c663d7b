package io.quotient.enforcer.core;

import java.util.List;

/** Everything one enforcement cycle decides on: GPUs, their attributed processes, managed containers. */
public record NodeSnapshot(GpuSample gpus, List<ObservedProcess> processes, List<ManagedContainer> managed) {

  public NodeSnapshot {
    processes = List.copyOf(processes);
    managed = List.copyOf(managed);
  }
}

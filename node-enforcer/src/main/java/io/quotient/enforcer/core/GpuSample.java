package io.quotient.enforcer.core;

import java.util.List;

/** One read of the node's GPUs: devices (whole GPUs and MIG instances) and their processes. */
public record GpuSample(String driverVersion, List<GpuDevice> devices, List<GpuProcess> processes) {

  public GpuSample {
    devices = List.copyOf(devices);
    processes = List.copyOf(processes);
  }
}

package io.quotient.enforcer.core;

import java.util.Map;

/**
 * The driver's per-process figures for one GPU over the last read: the percent of time each process
 * ran kernels there. A process listed on the GPU without an entry ran none (0 %). A GPU has one only
 * when its driver reports per-process utilization (not on MIG, nor on GPUs older than Maxwell).
 */
public record ProcessUtilization(String gpuUuid, Map<Integer, Integer> smPercentByPid) {

    public ProcessUtilization {
        smPercentByPid = Map.copyOf(smPercentByPid);
    }

    public int smPercent(int pid) {
        return smPercentByPid.getOrDefault(pid, 0);
    }
}

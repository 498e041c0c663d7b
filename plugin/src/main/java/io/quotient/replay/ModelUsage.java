package io.quotient.replay;

import java.util.Map;

/**
 * How one GPU model of the cluster was used over a replay.
 *
 * @param gpus                  the model's GPUs in the cluster
 * @param allocationPct         GPUs of the model allocated, % of the model's GPUs, time-weighted over the replay
 * @param allocationPctWhileWaiting the same over the time at least one job waited (any job, any model)
 * @param gpuHoursByTeam        GPU-hours each team held on the model (teams that held none left out)
 */
public record ModelUsage(
        String model,
        long gpus,
        double allocationPct,
        double allocationPctWhileWaiting,
        Map<String, Double> gpuHoursByTeam) {}

package io.quotient.replay;

/**
 * The measures of one replay, for the whole cluster or one team (definitions in docs/replay.md).
 *
 * @param jobs                         jobs submitted
 * @param finished                     jobs that finished (the rest never found room)
 * @param gpuAllocationPctWhileWaiting GPUs allocated, % of capacity, time-weighted over the time a job waited (for a
 *                                     team: its own GPUs while one of its jobs waited)
 * @param queueDelaySeconds            submission to first start, over the jobs that started
 * @param jctSeconds                   submission to finish, over the jobs that finished (p99 also kept)
 * @param timeToGuaranteeSeconds       lengths of the stretches a team held less than its target: the most it can hold
 *                                     within min(guarantee, demand) in whole jobs of its own
 * @param guaranteeDeficitGpuHours     the integral of target − held over those stretches
 * @param guaranteeDeficitBlockedGpuHours the part of that deficit no scheduler could have covered: beyond the free
 *                                     GPUs and other teams' jobs that may be preempted (non-preemptible jobs and jobs
 *                                     within their minimum runtime hold the rest)
 * @param fragmentationDelayJobHours   job-hours waited while the cluster had enough free GPUs in total for the job
 * @param jainFairness                 mean hourly Jain index of allocation over entitlement (cluster only; NaN for a team)
 * @param idle                         idle GPU-time and what the idle policy returned ({@link IdleFigures})
 */
public record Metrics(
        int jobs,
        int finished,
        double gpuAllocationPctWhileWaiting,
        Quantiles queueDelaySeconds,
        Quantiles jctSeconds,
        Quantiles timeToGuaranteeSeconds,
        double guaranteeDeficitGpuHours,
        double guaranteeDeficitBlockedGpuHours,
        long preemptions,
        long moves,
        double lostGpuHours,
        double deliveredGpuHours,
        double fragmentationDelayJobHours,
        double jainFairness,
        IdleFigures idle) {}

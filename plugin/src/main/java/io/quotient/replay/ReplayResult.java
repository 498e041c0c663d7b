package io.quotient.replay;

import java.util.List;
import java.util.Map;

/**
 * A policy's replay summarised: the cluster's metrics, each team's, how fast the decisions went, and each team's
 * mean GPUs per hour (for the charts), Jain's index per day, the allocation per GPU model and, for teams whose guarantee is split by model, the time to
 * guarantee per group.
 */
public record ReplayResult(
        String policy,
        int nodes,
        long gpus,
        Metrics overall,
        Map<String, Metrics> teams,
        long decisions,
        double decisionsPerSecond,
        double wallSeconds,
        Map<String, Long> guaranteesMilli,
        List<Long> hourStartsMs,
        Map<String, List<Double>> gpusPerHour,
        List<Double> queueDelaysSeconds,
        List<DayFairness> jainPerDay,
        List<ModelUsage> models,
        List<GroupGuarantee> modelGroups) {}

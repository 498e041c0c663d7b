package io.quotient.adapters.rest;

import io.quotient.deploy.Reports;

/**
 * A team's quota and use, in GPUs (fractions count).
 *
 * @param maxGpus null when the team has no ceiling
 */
public record TeamView(String name, double guaranteedGpus, Double maxGpus, double overQuotaWeight, int priority,
                       double allocatedGpus, double inQuotaGpus, double overQuotaGpus, int pendingJobs) {

    public static TeamView of(Reports.TeamUsage usage) {
        var t = usage.team();
        return new TeamView(t.name(), gpus(t.guaranteedMilli()), t.hasMax() ? gpus(t.maxMilli()) : null,
                t.overQuotaWeight(), t.priority(), gpus(usage.allocatedMilli()), gpus(usage.inQuotaMilli()),
                gpus(usage.overQuotaMilli()), usage.pendingJobs());
    }

    static double gpus(long milli) {
        return milli / 1000.0;
    }
}

package io.quotient.adapters.rest;

import io.quotient.deploy.Reports;

/**
 * A team's quota and use, in GPUs (fractions count).
 *
 * @param maxGpus        null when the team has no ceiling
 * @param fairShareGpus  its guarantee as far as it has demand plus its weighted share of idle GPUs
 * @param department     null for a team outside any department
 * @param decayedUsageGpus its decayed past borrowing (docs/fairness.md); 0 when fair shares have no memory
 */
public record TeamView(
        String name,
        double guaranteedGpus,
        Double maxGpus,
        double overQuotaWeight,
        int priority,
        double allocatedGpus,
        double inQuotaGpus,
        double overQuotaGpus,
        double fairShareGpus,
        int pendingJobs,
        String preemptWithinTeam,
        boolean fairShareReclaim,
        String department,
        double decayedUsageGpus) {

    public static TeamView of(Reports.TeamUsage usage) {
        var t = usage.team();
        return new TeamView(
                t.name(),
                gpus(t.guaranteedMilli()),
                t.hasMax() ? gpus(t.maxMilli()) : null,
                t.overQuotaWeight(),
                t.priority(),
                gpus(usage.allocatedMilli()),
                gpus(usage.inQuotaMilli()),
                gpus(usage.overQuotaMilli()),
                gpus(usage.fairShareMilli()),
                usage.pendingJobs(),
                t.preemptWithinTeam().wireName(),
                t.fairShareReclaim(),
                t.department() == null ? null : t.department().name(),
                gpus(usage.decayedUsageMilli()));
    }

    static double gpus(long milli) {
        return milli / 1000.0;
    }
}

package io.quotient.adapters.rest;

import io.quotient.deploy.Reports;

/**
 * A team's quota and use, in GPUs (fractions count).
 *
 * @param maxGpus        null when the team has no ceiling
 * @param fairShareGpus  its guarantee as far as it has demand plus its weighted share of idle GPUs
 * @param department     null for a team outside any department
 * @param decayedUsageGpus its decayed past borrowing (docs/fairness.md); 0 when fair shares have no memory
 * @param overQuotaShareGpus the part of its fair share beyond its guarantee: its entitlement to idle GPUs, after its
 *                         decayed usage when fair shares remember (docs/fairness.md)
 * @param usageHalfLife    the fair-share half-life (ISO-8601, e.g. {@code PT12H}) behind {@code decayedUsageGpus};
 *                         null when fair shares have no memory (instantaneous)
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
        double decayedUsageGpus,
        double overQuotaShareGpus,
        String usageHalfLife) {

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
                gpus(usage.decayedUsageMilli()),
                gpus(Math.max(0, usage.fairShareMilli() - t.guaranteedMilli())),
                usage.usageHalfLife().isZero() ? null : usage.usageHalfLife().toString());
    }

    static double gpus(long milli) {
        return milli / 1000.0;
    }
}

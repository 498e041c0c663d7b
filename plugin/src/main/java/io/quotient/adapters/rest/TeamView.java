package io.quotient.adapters.rest;

import io.quotient.core.model.ModelGroupUsage;
import io.quotient.deploy.Reports;
import java.util.List;

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
 * @param modelGroups    per model group of its guarantees, in the teams file's order (empty for "any model")
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
        String usageHalfLife,
        List<ModelGroupView> modelGroups) {

    /**
     * One model group of the team: its guarantee and maximum there, what it holds on nodes of those models and how
     * much of that is borrowed.
     *
     * @param maxGpus       null when the group has no ceiling
     * @param fairShareGpus the team's fair share of the group's GPUs (docs/fairness.md, "Fair share per model group")
     */
    public record ModelGroupView(
            String name,
            List<String> models,
            double guaranteedGpus,
            Double maxGpus,
            double heldGpus,
            double inQuotaGpus,
            double borrowedGpus,
            double fairShareGpus) {

        static ModelGroupView of(ModelGroupUsage u) {
            return new ModelGroupView(
                    u.guarantee().group().name(),
                    u.guarantee().group().models().stream().sorted().toList(),
                    gpus(u.guarantee().guaranteedMilli()),
                    u.guarantee().hasMax() ? gpus(u.guarantee().maxMilli()) : null,
                    gpus(u.heldMilli()),
                    gpus(u.inQuotaMilli()),
                    gpus(u.borrowedMilli()),
                    gpus(u.fairShareMilli()));
        }
    }

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
                usage.usageHalfLife().isZero() ? null : usage.usageHalfLife().toString(),
                usage.modelGroups().stream().map(ModelGroupView::of).toList());
    }

    static double gpus(long milli) {
        return milli / 1000.0;
    }
}

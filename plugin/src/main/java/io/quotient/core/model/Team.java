package io.quotient.core.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A team's quota in milli-GPU (fractions count).
 *
 * @param maxMilli          hard ceiling on everything the team holds; {@link #UNLIMITED} when none
 * @param overQuotaWeight   the team's share of idle capacity relative to other borrowing teams
 * @param priority          idle capacity goes to higher-priority teams first, then by weight
 * @param preemptWithinTeam whether the team's jobs may preempt its own lower-priority jobs
 * @param fairShareReclaim  whether the team takes part in reclaim toward the fair share (both ways: it neither
 *                          reclaims for fairness nor loses jobs to it when false); guarantees are reclaimed regardless
 * @param department        the department the team belongs to, or null for a team outside any department
 * @param maxMinRuntime     the longest minimum runtime the team's new jobs may ask for; it only lowers the cluster's
 *                          maximum, which applies to every job; null: the cluster's maximum
 * @param modelGuarantees   guarantees and maxima per GPU model group; {@link ModelGuarantees#NONE}: any model
 * @param idle              when the team's idle jobs give their GPUs back ({@link IdlePolicy#OFF}: never)
 */
public record Team(
        String name,
        long guaranteedMilli,
        long maxMilli,
        double overQuotaWeight,
        int priority,
        WithinTeamPreemption preemptWithinTeam,
        boolean fairShareReclaim,
        Department department,
        Duration maxMinRuntime,
        ModelGuarantees modelGuarantees,
        IdlePolicy idle) {

    public static final long UNLIMITED = Long.MAX_VALUE;

    public Team {
        Objects.requireNonNull(name, "team name");
        Objects.requireNonNull(preemptWithinTeam, "preemptWithinTeam");
        checkLimits("team " + name, guaranteedMilli, maxMilli, overQuotaWeight);
        if (maxMinRuntime != null && maxMinRuntime.isNegative()) {
            throw new IllegalArgumentException("team " + name + ": maxMinRuntimeSeconds must not be negative");
        }
        modelGuarantees = modelGuarantees == null ? ModelGuarantees.NONE : modelGuarantees;
        checkSplit("team " + name, guaranteedMilli, modelGuarantees);
        idle = idle == null ? IdlePolicy.OFF : idle;
    }

    /** A team without an idle policy. */
    public Team(
            String name,
            long guaranteedMilli,
            long maxMilli,
            double overQuotaWeight,
            int priority,
            WithinTeamPreemption preemptWithinTeam,
            boolean fairShareReclaim,
            Department department,
            Duration maxMinRuntime,
            ModelGuarantees modelGuarantees) {
        this(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                maxMinRuntime,
                modelGuarantees,
                IdlePolicy.OFF);
    }

    /** A team whose quota is "any model". */
    public Team(
            String name,
            long guaranteedMilli,
            long maxMilli,
            double overQuotaWeight,
            int priority,
            WithinTeamPreemption preemptWithinTeam,
            boolean fairShareReclaim,
            Department department,
            Duration maxMinRuntime) {
        this(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                maxMinRuntime,
                ModelGuarantees.NONE);
    }

    /**
     * A guarantee split by model group is the sum of the groups' guarantees: {@code guaranteedGpus} must equal it
     * (the teams file fills it in when omitted), so that every rule stated on the whole guarantee still holds.
     */
    static void checkSplit(String who, long guaranteedMilli, ModelGuarantees groups) {
        if (groups.splitsGuarantee() && groups.guaranteedMilli() != guaranteedMilli) {
            throw new IllegalArgumentException(who + ": guaranteedGpus (" + guaranteedMilli / 1000.0
                    + ") must equal the sum of guarantees[].gpus (" + groups.guaranteedMilli() / 1000.0
                    + "), or be left out");
        }
    }

    /** Whether the team's guarantee is split by model group. */
    public boolean splitsGuarantee() {
        return modelGuarantees.splitsGuarantee();
    }

    /** A team whose jobs may ask for minimum runtimes up to the cluster's maximum. */
    public Team(
            String name,
            long guaranteedMilli,
            long maxMilli,
            double overQuotaWeight,
            int priority,
            WithinTeamPreemption preemptWithinTeam,
            boolean fairShareReclaim,
            Department department) {
        this(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                null);
    }

    /** The limits teams and departments share; {@code who} starts each message ("team a", "department d"). */
    static void checkLimits(String who, long guaranteedMilli, long maxMilli, double overQuotaWeight) {
        if (guaranteedMilli < 0) {
            throw new IllegalArgumentException(who + ": guaranteedGpus must not be negative");
        }
        if (maxMilli < guaranteedMilli) {
            throw new IllegalArgumentException(who + ": maxGpus (" + maxMilli / 1000.0 + ") is below guaranteedGpus ("
                    + guaranteedMilli / 1000.0 + ")");
        }
        if (!(overQuotaWeight >= 0) || Double.isInfinite(overQuotaWeight)) {
            throw new IllegalArgumentException(who + ": overQuotaWeight must be a finite number >= 0");
        }
    }

    /** A team outside any department, preempting its own lower-priority jobs and taking part in fair-share reclaim. */
    public Team(String name, long guaranteedMilli, long maxMilli, double overQuotaWeight, int priority) {
        this(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                WithinTeamPreemption.LOWER_PRIORITY,
                true,
                null);
    }

    public static Team of(String name, double guaranteedGpus) {
        return new Team(name, Math.round(guaranteedGpus * 1000), UNLIMITED, 1.0, 0);
    }

    public boolean hasMax() {
        return maxMilli != UNLIMITED;
    }

    public Optional<Department> inDepartment() {
        return Optional.ofNullable(department);
    }

    public Team withDepartment(Department d) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                d,
                maxMinRuntime,
                modelGuarantees,
                idle);
    }

    public Team withPreemptWithinTeam(WithinTeamPreemption p) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                p,
                fairShareReclaim,
                department,
                maxMinRuntime,
                modelGuarantees,
                idle);
    }

    public Team withMaxMinRuntime(Duration limit) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                limit,
                modelGuarantees,
                idle);
    }

    public Team withFairShareReclaim(boolean on) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                on,
                department,
                maxMinRuntime,
                modelGuarantees,
                idle);
    }

    /**
     * The team with other limits and no model groups: how one model group's view of the books shows it (the limits
     * are the group's already).
     */
    public Team withQuota(long guaranteed, long max, Department d) {
        return new Team(
                name,
                guaranteed,
                max,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                d,
                maxMinRuntime,
                ModelGuarantees.NONE,
                idle);
    }

    public Team withModelGuarantees(ModelGuarantees groups) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                maxMinRuntime,
                groups,
                idle);
    }

    public Team withIdle(IdlePolicy policy) {
        return new Team(
                name,
                guaranteedMilli,
                maxMilli,
                overQuotaWeight,
                priority,
                preemptWithinTeam,
                fairShareReclaim,
                department,
                maxMinRuntime,
                modelGuarantees,
                policy);
    }
}

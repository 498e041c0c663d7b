package io.quotient.core.scheduling;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.WithinTeamPreemption;
import java.util.Optional;

/**
 * One rule of the reclaim ladder ({@link ReclaimLadder}): whether a job that does not fit may take capacity back, and
 * how far. Each step has a stable {@link #name()} (what eviction reasons and the failed-search memo key on), asks
 * {@link ReclaimRules} for its right on the workspace as it is now, and holds the claimant to the step's own limit at
 * the exact size a node gives it ({@link #keepsLimit}). The rules' semantics are stated on {@link ReclaimRules}.
 */
sealed interface ReclaimStep {

    Guarantee GUARANTEE = new Guarantee();
    GuaranteeByRelocation GUARANTEE_BY_RELOCATION = new GuaranteeByRelocation();
    GuaranteeWithinOneJob GUARANTEE_WITHIN_ONE_JOB = new GuaranteeWithinOneJob();
    DepartmentGuarantee DEPARTMENT_GUARANTEE = new DepartmentGuarantee();
    FairShare FAIR_SHARE = new FairShare();
    FairShareWithinOneJob FAIR_SHARE_WITHIN_ONE_JOB = new FairShareWithinOneJob();
    Priority PRIORITY = new Priority();
    GuaranteeWithOwnLowerPriority GUARANTEE_WITH_OWN_LOWER_PRIORITY = new GuaranteeWithOwnLowerPriority();
    FairShareWithOwnLowerPriority FAIR_SHARE_WITH_OWN_LOWER_PRIORITY = new FairShareWithOwnLowerPriority();
    Consolidation CONSOLIDATION = new Consolidation();

    /** The rule's stable name, as reasons and logs say it ("guarantee", "fair share", ...). */
    String name();

    /**
     * The right this rule grants the job, if any.
     *
     * @param milli the GPU milli the job (a whole gang) takes at least
     */
    Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws);

    /** Whether the claimant stays within this rule's limit at the exact {@code milli} a node gives it. */
    default boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
        return true;
    }

    /** The guarantee rules hold the claimant to its guarantee (a non-preemptible job beside the team's others). */
    private static boolean withinGuarantee(QuotaLedger ledger, JobSpec job, long milli) {
        return job.preemptible()
                ? ledger.fitsGuarantee(job.team(), milli)
                : ledger.fitsGuaranteeNonPreemptible(job.team(), milli);
    }

    /** The fair-share rules hold the claimant to its fair share. */
    private static boolean withinFairShare(QuotaLedger ledger, ReclaimRules rules, JobSpec job, long milli) {
        return ledger.total(job.team()) + milli <= rules.fairShare(job.team());
    }

    /** A team within its guarantee takes from teams above theirs, down to them ({@link ReclaimRules#guarantee}). */
    record Guarantee() implements ReclaimStep {
        @Override
        public String name() {
            return "guarantee";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.guarantee(job, milli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinGuarantee(ledger, job, milli);
        }
    }

    /**
     * For a gang, the guarantee when evictions and moves onto free GPUs free too few nodes: on a node that holds jobs
     * the rule may not evict (of teams within their guarantees) beside borrowed ones, those jobs are moved onto GPUs
     * freed for them on other nodes by evicting borrowed jobs, within the same allowances ({@link GangRelocation}).
     * Victims end no lower than under {@link Guarantee}; only with moves on ({@code maxMovesPerDecision} > 0). A
     * single job asks no whole node of a gang's kind, and its search is {@link ReclaimSearch}'s: no right for it.
     */
    record GuaranteeByRelocation() implements ReclaimStep {
        @Override
        public String name() {
            return "guarantee, relocating protected jobs";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            if (!job.gang().spansNodes()) {
                return Optional.empty();
            }
            return rules.guarantee(job, milli).filter(ReclaimRights::moves).map(r -> r.under(this));
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinGuarantee(ledger, job, milli);
        }
    }

    /**
     * The guarantee when no plan keeps every victim at its own: a victim may end less than one of its jobs below it
     * ({@link ReclaimRules#guaranteeWithinOneJob}).
     */
    record GuaranteeWithinOneJob() implements ReclaimStep {
        @Override
        public String name() {
            return "guarantee, within one job";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.guaranteeWithinOneJob(job, milli, ws::largestPreemptibleMilli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinGuarantee(ledger, job, milli);
        }
    }

    /**
     * A job its department's guarantee covers takes from teams outside the department
     * ({@link ReclaimRules#departmentGuarantee}).
     */
    record DepartmentGuarantee() implements ReclaimStep {
        @Override
        public String name() {
            return "department guarantee";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.departmentGuarantee(job, milli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return ledger.fitsDepartmentGuarantee(job.team(), milli);
        }
    }

    /** A team clearly below its fair share takes from teams clearly above theirs ({@link ReclaimRules#fairShare}). */
    record FairShare() implements ReclaimStep {
        @Override
        public String name() {
            return "fair share";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.fairShare(job, milli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinFairShare(ledger, rules, job, milli);
        }
    }

    /**
     * The fair share when no plan keeps every victim at its own: a victim may end less than one of its jobs below it
     * ({@link ReclaimRules#fairShareWithinOneJob}).
     */
    record FairShareWithinOneJob() implements ReclaimStep {
        @Override
        public String name() {
            return "fair share, within one job";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.fairShareWithinOneJob(job, milli, ws::largestPreemptibleMilli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinFairShare(ledger, rules, job, milli);
        }
    }

    /**
     * With {@link WithinTeamPreemption#LOWER_PRIORITY}, a job takes from its own team's lower-priority jobs
     * ({@link ReclaimRules#priority}); also the one right of a job at its team's maximum. Where the job would take
     * its team or its department beyond a maximum, the team frees that excess of its own jobs first
     * ({@link QuotaLedger#beyondMaxima}): the rule takes nothing from others, so only that makes the room bookable.
     */
    record Priority() implements ReclaimStep {
        @Override
        public String name() {
            return "priority";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            // only the team's own jobs are taken: beyond its or its department's maximum it frees the excess first
            return rules.priority(job, ws.ledger().beyondMaxima(job.team(), milli));
        }
    }

    /**
     * A team below its guarantee frees its own lower-priority jobs and takes the rest from teams above their
     * guarantees, in one plan ({@link ReclaimRules#guaranteeWithOwnLowerPriority}).
     */
    record GuaranteeWithOwnLowerPriority() implements ReclaimStep {
        @Override
        public String name() {
            return "guarantee, with the team's lower-priority jobs";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.guaranteeWithOwnLowerPriority(job, milli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return ledger.fitsGuarantee(job.team(), milli - r.ownMustFree());
        }
    }

    /**
     * A team clearly below its fair share frees its own lower-priority jobs and takes the rest from teams clearly above
     * their fair shares, in one plan ({@link ReclaimRules#fairShareWithOwnLowerPriority}).
     */
    record FairShareWithOwnLowerPriority() implements ReclaimStep {
        @Override
        public String name() {
            return "fair share, with the team's lower-priority jobs";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            return rules.fairShareWithOwnLowerPriority(job, milli);
        }

        @Override
        public boolean keepsLimit(QuotaLedger ledger, ReclaimRules rules, JobSpec job, ReclaimRights r, long milli) {
            return withinFairShare(ledger, rules, job, milli - r.ownMustFree());
        }
    }

    /**
     * Moves only, when free capacity would hold the job but is scattered over nodes
     * ({@link ReclaimRules#consolidation}).
     */
    record Consolidation() implements ReclaimStep {
        @Override
        public String name() {
            return "consolidation";
        }

        @Override
        public Optional<ReclaimRights> rights(ReclaimRules rules, JobSpec job, long milli, Workspace ws) {
            boolean onlyFragmented =
                    milli > 0 && ws.state().totalGpuMilli() - ws.state().allocatedGpuMilli() >= milli;
            return onlyFragmented ? rules.consolidation(job) : Optional.empty();
        }
    }
}

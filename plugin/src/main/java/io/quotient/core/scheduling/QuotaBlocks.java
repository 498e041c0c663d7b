package io.quotient.core.scheduling;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;

/** Why quota alone holds a job back, before any capacity is looked at, as the ledger (or a view of it) shows it. */
final class QuotaBlocks {

    private QuotaBlocks() {}

    /** Why quota alone keeps the job waiting at {@code milli}, or null when quota allows it. */
    static String of(QuotaLedger ledger, JobSpec job, Team team, long milli) {
        if (ledger.exceedsMax(team.name(), milli)) {
            return WaitReasons.atMax(team, ledger.total(team.name()), milli);
        }
        if (ledger.exceedsDepartmentMax(team.name(), milli)) {
            return WaitReasons.departmentAtMax(
                    team, ledger.departmentTotal(team.department().name()), milli);
        }
        if (!job.preemptible() && !ledger.fitsGuaranteeNonPreemptible(team.name(), milli)) {
            return WaitReasons.nonPreemptibleBeyondGuarantee(team, ledger.nonPreemptible(team.name()), milli);
        }
        return null;
    }

    /**
     * Whether quota holds a job back only because its department is at its maximum (the team itself is within
     * its own, and a non-preemptible job within its guarantee): then the rules may free inside the department.
     */
    static boolean onlyDepartmentAtMax(QuotaLedger ledger, JobSpec job, Team team, long milli) {
        return !ledger.exceedsMax(team.name(), milli)
                && ledger.exceedsDepartmentMax(team.name(), milli)
                && (job.preemptible() || ledger.fitsGuaranteeNonPreemptible(team.name(), milli));
    }
}

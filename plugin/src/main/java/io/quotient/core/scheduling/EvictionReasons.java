package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import java.util.List;

/** Why a job is evicted: which rule let the claimant take its capacity, with what its team held. */
final class EvictionReasons {

    private EvictionReasons() {}

    static String of(
            QuotaLedger ledger,
            ReclaimRules rules,
            PlacedJob victim,
            List<PlacedJob> victims,
            JobSpec claimant,
            ReclaimStep rule) {
        String team = victim.spec().team();
        long heldBefore = ledger.total(team)
                + victims.stream()
                        .filter(v -> v.spec().team().equals(team))
                        .mapToLong(PlacedJob::gpuMilli)
                        .sum();
        String held = team + " held " + WaitReasons.gpus(heldBefore) + " GPUs with a guarantee of "
                + WaitReasons.gpus(ledger.team(team).guaranteedMilli());
        if (rule instanceof ReclaimStep.Priority) {
            return "Preempted by " + claimant.id() + " (priority " + claimant.priority() + ") of the same team; this"
                    + " job has priority " + victim.spec().priority() + " and is re-queued";
        }
        if (team.equals(claimant.team()) && rule instanceof ReclaimStep.FairShareWithOwnLowerPriority) {
            return "Preempted by " + claimant.id() + " (priority " + claimant.priority() + ") of the same team, which"
                    + " needs " + team + "'s fair share of " + WaitReasons.gpus(rules.fairShare(team)) + " GPUs ("
                    + held + "); this job has priority " + victim.spec().priority() + " and is re-queued";
        }
        if (rule instanceof ReclaimStep.FairShare
                || rule instanceof ReclaimStep.FairShareWithinOneJob
                || rule instanceof ReclaimStep.FairShareWithOwnLowerPriority) {
            // in a model group's fair-share view the figures are the group's: say so
            String in = ledger.group().map(g -> " in " + g.name()).orElse("");
            return "Preempted by " + claimant.team() + " reclaiming its fair share of "
                    + WaitReasons.gpus(rules.fairShare(claimant.team())) + " GPUs" + in + " for " + claimant.id() + "; "
                    + held
                    + " and a fair share of " + WaitReasons.gpus(rules.fairShare(team))
                    + (!(rule instanceof ReclaimStep.FairShareWithinOneJob)
                            ? ""
                            : ", and no smaller set of its jobs frees a node for it")
                    + "; this job is re-queued";
        }
        if (team.equals(claimant.team()) && rule instanceof ReclaimStep.GuaranteeWithOwnLowerPriority) {
            return "Preempted by " + claimant.id() + " (priority " + claimant.priority() + ") of the same team, which"
                    + " needs " + team + "'s guarantee (" + held + "); this job has priority "
                    + victim.spec().priority()
                    + " and is re-queued";
        }
        if (team.equals(claimant.team()) && heldBefore <= ledger.team(team).guaranteedMilli()) {
            // the guarantee rule lets a non-preemptible job displace its own team's preemptible jobs even when they
            // ran within the guarantee: say that rule, not a borrowing that did not happen
            return "Preempted by " + claimant.id() + ", which is not preemptible and has first claim on " + team
                    + "'s guarantee (" + held + "); a preemptible job holds the guarantee only while the team's"
                    + " non-preemptible jobs leave it free; this job is re-queued";
        }
        if (team.equals(claimant.team())) {
            return "Preempted by " + claimant.id() + ", which runs within " + team + "'s guarantee; this job ran on"
                    + " borrowed GPUs (" + held + ") and is re-queued";
        }
        if (rule instanceof ReclaimStep.DepartmentGuarantee) {
            Department department = ledger.team(claimant.team()).department();
            return "Preempted by " + claimant.team() + " reclaiming department " + department.name()
                    + "'s guarantee of "
                    + WaitReasons.gpus(department.guaranteedMilli()) + " GPUs for "
                    + claimant.id() + "; this job ran on borrowed GPUs (" + held + ") and is re-queued";
        }
        if (rule instanceof ReclaimStep.GuaranteeWithinOneJob) {
            return "Preempted by " + claimant.team() + " reclaiming its guarantee for " + claimant.id() + " ("
                    + claimant.team() + " held " + WaitReasons.gpus(ledger.total(claimant.team())) + " of "
                    + WaitReasons.gpus(ledger.team(claimant.team()).guaranteedMilli()) + " guaranteed GPUs); " + held
                    + " and no smaller set of its jobs frees a node for it; this job is re-queued";
        }
        return "Preempted by " + claimant.team() + " reclaiming its guarantee for " + claimant.id()
                + "; this job ran on borrowed GPUs (" + held + ") and is re-queued";
    }
}

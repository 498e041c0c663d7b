package io.quotient.core.scheduling;

import java.util.List;

/**
 * The reclaim ladder: the rules that may make room for a job that does not fit, in the order every claimant tries
 * them, a single job and a gang (for the whole gang) alike, as KAI-Scheduler's reclaim strategies are a list. The
 * first step that grants a right under which a plan works wins; each right is computed when its step is tried, on the
 * workspace as the earlier, failed tries left it (unchanged).
 *
 * <ol>
 *   <li>{@link ReclaimStep.Guarantee}: a team within its guarantee takes from teams above theirs, down to them;
 *   <li>{@link ReclaimStep.GuaranteeByRelocation}: for a gang, the same, moving the jobs it may not evict off the
 *       nodes it frees onto GPUs freed for them by evicting borrowed jobs elsewhere;
 *   <li>{@link ReclaimStep.GuaranteeWithinOneJob}: the same when whole jobs do not split at the victims' guarantees;
 *   <li>{@link ReclaimStep.DepartmentGuarantee}: a job its department's guarantee covers takes from teams outside it;
 *   <li>{@link ReclaimStep.FairShare}: a team clearly below its fair share takes from teams clearly above theirs;
 *   <li>{@link ReclaimStep.FairShareWithinOneJob}: the same when whole jobs do not split at the victims' shares;
 *   <li>{@link ReclaimStep.Priority}: the team's own lower-priority jobs, where the team allows it;
 *   <li>{@link ReclaimStep.GuaranteeWithOwnLowerPriority}: the guarantee, freeing the team's own lower-priority jobs
 *       and taking the rest from others in one plan, when no rule alone found one;
 *   <li>{@link ReclaimStep.FairShareWithOwnLowerPriority}: the same for the fair share;
 *   <li>{@link ReclaimStep.Consolidation}: moves only, when free capacity would hold the job but is scattered.
 * </ol>
 *
 * Guarantees come before fair shares (what a team is promised before what it would get of idle capacity), strict
 * limits before their within-one-job fallbacks (relocating a team's jobs, which keeps every team at its level,
 * before taking a victim below its guarantee) (a victim is taken below its level only when nothing else works),
 * and moves alone last (they evict nothing, but only help a job that quota already lets run).
 */
final class ReclaimLadder {

    /** The steps in the order they are tried. */
    static final List<ReclaimStep> STEPS = List.of(
            ReclaimStep.GUARANTEE,
            ReclaimStep.GUARANTEE_BY_RELOCATION,
            ReclaimStep.GUARANTEE_WITHIN_ONE_JOB,
            ReclaimStep.DEPARTMENT_GUARANTEE,
            ReclaimStep.FAIR_SHARE,
            ReclaimStep.FAIR_SHARE_WITHIN_ONE_JOB,
            ReclaimStep.PRIORITY,
            ReclaimStep.GUARANTEE_WITH_OWN_LOWER_PRIORITY,
            ReclaimStep.FAIR_SHARE_WITH_OWN_LOWER_PRIORITY,
            ReclaimStep.CONSOLIDATION);

    private ReclaimLadder() {}
}

package io.quotient.replay;

import io.quotient.core.scheduling.Scheduler;

/**
 * {@code borrow}: idle GPUs are lent to any team and never taken back; a team's guarantee only orders who gets freed
 * capacity first. Stands for quota systems that allow borrowing without preemption (e.g. YARN's capacity scheduler
 * with preemption off, Kueue with {@code reclaimWithinCohort: Never}). Approximation: the same scheduler, but running
 * jobs are never evicted or moved (the replay shows them to it as protected by their minimum runtime).
 */
final class BorrowOnly implements ReplayPolicy {

    @Override
    public String name() {
        return "borrow";
    }

    @Override
    public String approximates() {
        return "approximates borrowing without preemption (YARN capacity scheduler without preemption, Kueue reclaimWithinCohort: Never)";
    }

    @Override
    public Scheduler newScheduler() {
        return Baselines.scheduler("quotient", 0);
    }

    @Override
    public boolean reclaims() {
        return false;
    }

    @Override
    public PassSchedule passes() {
        return PassSchedule.SERVICE.withoutDefragmentation();
    }
}

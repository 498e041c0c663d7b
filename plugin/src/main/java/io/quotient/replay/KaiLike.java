package io.quotient.replay;

import io.quotient.core.scheduling.Scheduler;

/**
 * {@code kai-like}: NVIDIA's KAI scheduler — bin-packing placement, reclaim toward each queue's deserved quota, and
 * proportional fair share of the rest (reclaim as soon as a queue is below its share), with consolidation moving jobs
 * to make room. Approximation: the scheduling core with best-fit (bin-packing) placement, fair-share reclaim without
 * hysteresis, the service's 4 moves per decision for consolidation, and no nightly defragmentation.
 */
final class KaiLike implements ReplayPolicy {

    @Override
    public String name() {
        return "kai-like";
    }

    @Override
    public String approximates() {
        return "approximates KAI: bin-packing, reclaim to deserved quota, proportional fair share, consolidation";
    }

    @Override
    public Scheduler newScheduler() {
        return Baselines.scheduler("bestfit", 0, QuotientDefault.MAX_MOVES_PER_DECISION);
    }

    @Override
    public PassSchedule passes() {
        return PassSchedule.SERVICE.withoutDefragmentation();
    }
}

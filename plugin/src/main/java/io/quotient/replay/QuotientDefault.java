package io.quotient.replay;

import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.WorkloadLearner;
import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.core.scheduling.ObservedJobs;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.core.scheduling.ReclaimSettings;
import io.quotient.core.scheduling.Scheduler;

/**
 * {@code quotient}: the service's default configuration, built as {@code SchedulerConfiguration} builds it — the
 * {@code quotient} placement policy with seed 42, scoring against the workload learned from the jobs it sees, fair-share
 * reclaim from 1 GPU below the share, at most 4 moves per decision — at the service's default schedules.
 */
final class QuotientDefault implements ReplayPolicy {

    private final FairShareSettings fairShare;

    QuotientDefault() {
        this(FairShareSettings.INSTANTANEOUS);
    }

    private QuotientDefault(FairShareSettings fairShare) {
        this.fairShare = fairShare;
    }

    /** {@code quotient.scheduling.*} defaults (a test keeps them equal to QuotientProperties'). */
    static final String PLACEMENT = "quotient";

    static final long SEED = 42;
    static final double FAIR_SHARE_MIN_GAIN_GPUS = 1;
    static final int MAX_MOVES_PER_DECISION = 4;

    @Override
    public String name() {
        return "quotient";
    }

    @Override
    public String approximates() {
        return "the service's default configuration (not an approximation: the same scheduler and schedules)";
    }

    /** The service's idle pass runs on the leader whenever a team's idle policy watches a job. */
    @Override
    public boolean releasesIdle() {
        return true;
    }

    @Override
    public FairShareSettings fairShare() {
        return fairShare;
    }

    @Override
    public ReplayPolicy withFairShare(FairShareSettings settings) {
        return new QuotientDefault(settings);
    }

    @Override
    public Scheduler newScheduler() {
        WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical());
        return new QuotaScheduler(
                PLACEMENT,
                SEED,
                ClusterFittedWorkload.following(learner::current),
                new ReclaimSettings(Math.round(FAIR_SHARE_MIN_GAIN_GPUS * 1000), MAX_MOVES_PER_DECISION),
                new ObservedJobs(learner));
    }
}

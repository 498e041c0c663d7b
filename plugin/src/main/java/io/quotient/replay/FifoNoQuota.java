package io.quotient.replay;

import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import io.quotient.core.scheduling.Scheduler;
import java.util.Map;

/**
 * {@code fifo}: no quotas, one queue in submission order (the default kube-scheduler's queue without any quota
 * controller): a later job starts where an earlier one does not fit, nothing is preempted. Approximation: every job is
 * scheduled in one pooled team guaranteed the whole cluster, never preempting within it; least-allocated placement.
 */
final class FifoNoQuota implements ReplayPolicy {

    static final String POOL = "fifo-pool";

    @Override
    public String name() {
        return "fifo";
    }

    @Override
    public String approximates() {
        return "approximates the default kube-scheduler without quotas (one FIFO queue, least-allocated, no preemption)";
    }

    @Override
    public Scheduler newScheduler() {
        return Baselines.scheduler("leastallocated", 0);
    }

    @Override
    public Map<String, Team> teams(Map<String, Team> configured, long capacityMilli) {
        return Map.of(
                POOL, new Team(POOL, capacityMilli, Team.UNLIMITED, 1, 0, WithinTeamPreemption.NEVER, false, null));
    }

    @Override
    public String schedulingTeam(String team) {
        return POOL;
    }

    /**
     * Running jobs are shown as protected: without it the core's rule for a team's own jobs (a non-preemptible job
     * may displace its team's preemptible ones beyond the guarantee) made the pool's notebooks and inference jobs
     * evict the training jobs before them, which the queue this stands for never does.
     */
    @Override
    public boolean reclaims() {
        return false;
    }

    @Override
    public PassSchedule passes() {
        return PassSchedule.SERVICE.withoutDefragmentation();
    }
}

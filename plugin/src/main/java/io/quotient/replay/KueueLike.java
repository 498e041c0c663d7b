package io.quotient.replay;

import io.quotient.core.model.Team;
import io.quotient.core.scheduling.Scheduler;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code kueue-like}: Kueue with one ClusterQueue per team in a cohort ({@code nominalQuota} = the guarantee), idle
 * quota borrowed within the cohort, {@code reclaimWithinCohort: Any} (a team below its nominal quota takes borrowed
 * capacity back), {@code withinClusterQueue: LowerPriority}, no fair sharing, and pods placed by the kube-scheduler's
 * default least-allocated scoring. Approximation: the scheduling core with fair-share reclaim off for every team, no
 * moves and no defragmentation; Kueue's admission order between ClusterQueues is approximated by the core's.
 */
final class KueueLike implements ReplayPolicy {

    @Override
    public String name() {
        return "kueue-like";
    }

    @Override
    public String approximates() {
        return "approximates Kueue: cohort borrowing, reclaimWithinCohort Any, withinClusterQueue LowerPriority,"
                + " no fair sharing, least-allocated kube-scheduler placement";
    }

    @Override
    public Scheduler newScheduler() {
        return Baselines.scheduler("leastallocated", 0);
    }

    @Override
    public Map<String, Team> teams(Map<String, Team> configured, long capacityMilli) {
        Map<String, Team> noFairShare = new LinkedHashMap<>();
        configured.forEach((name, t) -> noFairShare.put(name, t.withFairShareReclaim(false)));
        return noFairShare;
    }

    @Override
    public PassSchedule passes() {
        return PassSchedule.SERVICE.withoutDefragmentation();
    }
}

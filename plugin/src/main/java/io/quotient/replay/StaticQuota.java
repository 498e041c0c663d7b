package io.quotient.replay;

import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.Scheduler;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code static}: what a cluster admin builds with a Kubernetes ResourceQuota per namespace ({@code requests.nvidia.com/gpu}
 * = the team's guarantee) and the default kube-scheduler. Approximation: every team is capped at its guarantee (its
 * maximum is set to it), so nothing is ever borrowed or reclaimed; a guarantee split by GPU model is capped per model
 * group the same way (a ResourceQuota per namespace and flavor); placement is the kube-scheduler's least-allocated
 * scoring; no moves, no defragmentation.
 */
final class StaticQuota implements ReplayPolicy {

    @Override
    public String name() {
        return "static";
    }

    @Override
    public String approximates() {
        return "approximates a ResourceQuota per namespace at the guarantee with the default kube-scheduler";
    }

    @Override
    public Scheduler newScheduler() {
        return Baselines.scheduler("leastallocated", 0);
    }

    @Override
    public Map<String, Team> teams(Map<String, Team> configured, long capacityMilli) {
        Map<String, Team> capped = new LinkedHashMap<>();
        configured.forEach((name, t) -> capped.put(
                name,
                new Team(
                                name,
                                t.guaranteedMilli(),
                                t.guaranteedMilli(),
                                t.overQuotaWeight(),
                                t.priority(),
                                t.preemptWithinTeam(),
                                false,
                                null)
                        .withModelGuarantees(cappedGroups(t))));
        return capped;
    }

    /** A split guarantee's groups, each capped at its own guarantee; maxima-only groups as they are. */
    private static ModelGuarantees cappedGroups(Team t) {
        if (!t.splitsGuarantee()) {
            return t.modelGuarantees();
        }
        return new ModelGuarantees(t.modelGuarantees().groups().stream()
                .map(g -> new ModelGuarantee(g.group(), g.guaranteedMilli(), g.guaranteedMilli()))
                .toList());
    }

    @Override
    public PassSchedule passes() {
        return PassSchedule.SERVICE.withoutDefragmentation();
    }
}

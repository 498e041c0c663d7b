package io.quotient.replay;

import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.TeamShares;
import java.util.Map;

/**
 * The teams' fair shares where the quotas name model groups, as the scheduler divides them (each group's GPUs on their
 * own, a team's share its shares summed over the groups): computed from the jobs running and waiting, each under its
 * trace team. A baseline may schedule jobs under another team (fifo pools every job into one), and the shares a
 * replay is measured against are the configured teams', whatever the policy.
 */
final class GroupFairShares {

    private GroupFairShares() {}

    static Map<String, Long> of(Map<String, Team> teams, ReplayState state) {
        return TeamShares.fairShares(
                teams,
                state.running().stream().map(GroupFairShares::placed).toList(),
                state.waiting().stream()
                        .map(r -> underTeam(r.spec(), r.job().team()))
                        .toList(),
                state.nodes());
    }

    private static PlacedJob placed(JobRun run) {
        PlacedJob p = run.placement();
        JobSpec spec = underTeam(p.spec(), run.job().team());
        return spec == p.spec()
                ? p
                : new PlacedJob(
                        spec,
                        p.node(),
                        p.gpuIndices(),
                        p.milliPerGpu(),
                        p.quotaState(),
                        p.startedAt(),
                        p.otherReplicas(),
                        p.gpuMilli());
    }

    private static JobSpec underTeam(JobSpec s, String team) {
        if (s.team().equals(team)) {
            return s;
        }
        return new JobSpec(
                new JobId(team, s.id().name()),
                s.gpu(),
                s.cpuMilli(),
                s.memoryMib(),
                s.allowedModels(),
                s.priority(),
                s.preemptible(),
                s.minRuntime(),
                s.gang(),
                s.kind());
    }
}

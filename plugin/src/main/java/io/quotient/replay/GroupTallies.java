package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Time to guarantee per model group, for teams whose guarantee is split by GPU model: one {@link TeamTally} per
 * (team, group) with the group's guarantee. What the team holds there is what runs on nodes of the group's models; its
 * waiting jobs there are those pinned within the group (an unpinned waiting job may go to any group, so it makes no
 * group's demand: the same bound as the core's property, min(group guarantee, pinned demand)). The target is the
 * team's: what it holds there plus what its waiting jobs there can add within the bound.
 */
final class GroupTallies {

    private final Map<String, String> modelOfNode = new HashMap<>();
    private final Map<String, Team> teams;
    /** Per split team, its groups in declared order with their tallies. */
    private final Map<String, Map<ModelGuarantee, TeamTally>> tallies = new LinkedHashMap<>();

    GroupTallies(Map<String, Team> teams, List<NodeSpec> nodes) {
        this.teams = teams;
        nodes.forEach(n -> modelOfNode.put(n.name(), n.gpuModel()));
        teams.forEach((name, t) -> {
            if (t.splitsGuarantee()) {
                Map<ModelGuarantee, TeamTally> groups = new LinkedHashMap<>();
                t.modelGuarantees().groups().forEach(g -> groups.put(g, new TeamTally(g.guaranteedMilli())));
                tallies.put(name, groups);
            }
        });
    }

    void arrived(JobRun run) {
        pinnedGroup(run).ifPresent(g -> tally(run, g).waits(run.demandMilli()));
    }

    void started(JobRun run, boolean afterMove) {
        Optional<ModelGuarantee> pinned = pinnedGroup(run);
        if (!afterMove && pinned.isPresent()) {
            tally(run, pinned.get()).stopsWaiting(run.demandMilli());
        }
        groupOf(run, run.placement())
                .ifPresent(g -> tally(run, g).holds(run.placement().gpuMilli()));
    }

    void stopped(JobRun run, PlacedJob from, boolean moved) {
        groupOf(run, from).ifPresent(g -> tally(run, g).holds(-from.gpuMilli()));
        if (moved) {
            return; // it starts again at once; started() counts it where it lands
        }
        pinnedGroup(run).ifPresent(g -> tally(run, g).waits(run.demandMilli()));
    }

    void finished(JobRun run, PlacedJob from) {
        groupOf(run, from).ifPresent(g -> tally(run, g).holds(-from.gpuMilli()));
    }

    void integrate(long fromMs, long dt, long freeMilli) {
        // the blocked part is not measured per group: nothing the cluster could take is counted as blocking
        tallies.values().forEach(groups -> groups.values().forEach(t -> t.integrate(fromMs, dt, freeMilli, () -> 0)));
    }

    void ended(long endMs) {
        tallies.values().forEach(groups -> groups.values().forEach(t -> t.closeDeficit(endMs)));
    }

    List<GroupGuarantee> result() {
        List<GroupGuarantee> list = new ArrayList<>();
        tallies.forEach((team, groups) -> groups.forEach((g, t) -> list.add(new GroupGuarantee(
                team,
                g.group().name(),
                g.guaranteedMilli(),
                Quantiles.ofMillis(t.timesToGuaranteeMs()),
                t.deficitGpuHours()))));
        return list;
    }

    private TeamTally tally(JobRun run, ModelGuarantee g) {
        return tallies.get(run.job().team()).get(g);
    }

    /** The group of the team that holds every model the job is pinned to, if the team is split and there is one. */
    private Optional<ModelGuarantee> pinnedGroup(JobRun run) {
        Team team = teams.get(run.job().team());
        if (!tallies.containsKey(run.job().team()) || run.job().models().isEmpty()) {
            return Optional.empty();
        }
        return team.modelGuarantees().groups().stream()
                .filter(g -> g.group().models().containsAll(run.job().models()))
                .findFirst();
    }

    /** The team's group of the model of the node the placement's first replica runs on (gangs run on one model). */
    private Optional<ModelGuarantee> groupOf(JobRun run, PlacedJob p) {
        if (!tallies.containsKey(run.job().team())) {
            return Optional.empty();
        }
        return teams.get(run.job().team()).modelGuarantees().forModel(modelOfNode.get(p.node()));
    }
}

package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.TeamShares;
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
 * group's demand: the same bound as the core's property, min(group guarantee, pinned demand), the group guarantee met
 * as far as the group's GPUs can meet it, {@link #met}). The target is the
 * team's: what it holds there plus what its waiting jobs there can add within the bound.
 *
 * <p>It also gives the whole team's target ({@link #of}): a split guarantee is a guarantee per group, so the team's
 * gap is the sum of its groups' gaps (what it runs beyond a group's guarantee or outside every group is borrowed and
 * fills no other group's gap), and a waiting job of a split team can bring the team
 * toward its guarantee only within a group whose models it may run on (unpinned: any group; pinned: the groups that
 * hold one of its models), and only up to that group's gap. Without the bound an unpinned 8-GPU job would count as
 * fitting a 12-GPU gap of the team made of two 6-GPU gaps no one group holds.
 */
final class GroupTallies {

    private final Map<String, String> modelOfNode = new HashMap<>();
    private final Map<String, Team> teams;
    /** Per split team, its groups in declared order with their tallies. */
    private final Map<String, Map<ModelGuarantee, TeamTally>> tallies = new LinkedHashMap<>();
    /** Per split team and group, the team's waiting jobs that may run on the group's models (unpinned or pinned there). */
    private final Map<String, Map<ModelGuarantee, WholeJobTarget>> eligible = new HashMap<>();

    private final Map<String, GuaranteeGroups> views = new HashMap<>();
    /**
     * Per split team and group, the part of the group's guarantee the cluster's GPUs of the group can meet, as the
     * scheduler's group division meets it ({@link TeamShares#groupGuaranteesMet}): the group's target is bound by it.
     */
    private final Map<String, Map<ModelGuarantee, Long>> met = new HashMap<>();

    GroupTallies(Map<String, Team> teams, List<NodeSpec> nodes) {
        this.teams = teams;
        nodes.forEach(n -> modelOfNode.put(n.name(), n.gpuModel()));
        Map<String, Map<ModelGroup, Long>> inCluster = TeamShares.groupGuaranteesMet(teams, nodes);
        teams.forEach((name, t) -> {
            if (t.splitsGuarantee()) {
                Map<ModelGuarantee, TeamTally> groups = new LinkedHashMap<>();
                Map<ModelGuarantee, WholeJobTarget> targets = new LinkedHashMap<>();
                Map<ModelGuarantee, Long> caps = new HashMap<>();
                t.modelGuarantees().groups().forEach(g -> {
                    long cap = inCluster.getOrDefault(name, Map.of()).getOrDefault(g.group(), 0L);
                    caps.put(g, cap);
                    groups.put(g, new TeamTally(cap));
                    targets.put(g, new WholeJobTarget());
                });
                met.put(name, caps);
                tallies.put(name, groups);
                eligible.put(name, targets);
                views.put(name, view(name));
            }
        });
    }

    void arrived(JobRun run) {
        pinnedGroup(run).ifPresent(g -> tally(run, g).waits(run.demandMilli()));
        eligibleTargets(run).forEach(t -> t.add(run.demandMilli()));
    }

    /** The team's split guarantee as the team's own target needs it; {@link GuaranteeGroups#NONE} if not split. */
    GuaranteeGroups of(String team) {
        return views.getOrDefault(team, GuaranteeGroups.NONE);
    }

    private GuaranteeGroups view(String team) {
        Map<ModelGuarantee, WholeJobTarget> targets = eligible.get(team);
        Map<ModelGuarantee, TeamTally> groups = tallies.get(team);
        Map<ModelGuarantee, Long> caps = met.get(team);
        return new GuaranteeGroups() {
            @Override
            public long gap(long wholeGap) {
                long sum = 0;
                for (Map.Entry<ModelGuarantee, TeamTally> e : groups.entrySet()) {
                    sum += Math.max(0, caps.get(e.getKey()) - e.getValue().heldMilli());
                }
                return sum;
            }

            /**
             * Each group's gap (its guarantee less what the team holds there) filled by the team's waiting jobs that
             * may run there, summed over the groups: an upper bound where one unpinned job would fill two groups'
             * gaps, which the subset sum over the team's whole gap bounds as well.
             */
            @Override
            public long reachable() {
                long sum = 0;
                for (Map.Entry<ModelGuarantee, WholeJobTarget> e : targets.entrySet()) {
                    ModelGuarantee g = e.getKey();
                    sum += e.getValue().within(caps.get(g) - groups.get(g).heldMilli());
                }
                return sum;
            }
        };
    }

    void started(JobRun run, boolean afterMove) {
        Optional<ModelGuarantee> pinned = pinnedGroup(run);
        if (!afterMove && pinned.isPresent()) {
            tally(run, pinned.get()).stopsWaiting(run.demandMilli());
        }
        if (!afterMove) {
            eligibleTargets(run).forEach(t -> t.remove(run.demandMilli()));
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
        eligibleTargets(run).forEach(t -> t.add(run.demandMilli()));
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

    /** The eligible-job targets of the groups the job may run on, for a job of a split team; none otherwise. */
    private List<WholeJobTarget> eligibleTargets(JobRun run) {
        Map<ModelGuarantee, WholeJobTarget> targets = eligible.get(run.job().team());
        if (targets == null) {
            return List.of();
        }
        List<WholeJobTarget> list = new ArrayList<>();
        targets.forEach((g, t) -> {
            if (run.job().models().isEmpty() || run.job().models().stream().anyMatch(g.group()::contains)) {
                list.add(t);
            }
        });
        return list;
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

package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Each team's fair share as the scheduler computes it, for reports (REST, {@code inspect}, metrics). */
public final class TeamShares {

    private TeamShares() {}

    /**
     * @param placed  the jobs holding capacity
     * @param waiting the jobs waiting for it
     * @return per configured team, its fair share in milli-GPU
     */
    public static Map<String, Long> fairShares(
            Map<String, Team> teams, Collection<PlacedJob> placed, Collection<JobSpec> waiting, List<NodeSpec> nodes) {
        return fairShares(teams, placed, waiting, nodes, Map.of());
    }

    /** @param past per team, its decayed past borrowing in milli ({@link UsageHistory#decayedMilli()}) */
    public static Map<String, Long> fairShares(
            Map<String, Team> teams,
            Collection<PlacedJob> placed,
            Collection<JobSpec> waiting,
            List<NodeSpec> nodes,
            Map<String, Double> past) {
        if (GroupShares.declared(teams)) {
            return groupShares(teams, placed, waiting, nodes, past).summed();
        }
        Map<String, Long> demand = new HashMap<>();
        placed.forEach(j -> demand.merge(j.spec().team(), j.gpuMilli(), Long::sum));
        waiting.forEach(j -> demand.merge(j.team(), Demands.leastMilli(j, nodes), Long::sum));
        long capacity =
                nodes.stream().mapToLong(n -> (long) n.gpuCount() * 1000).sum();
        return FairShare.of(teams, demand, capacity, past);
    }

    /**
     * Per team, its fair share in each of the cluster's model groups (in milli), as the scheduler divides them when the
     * quotas name model groups (docs/fairness.md, "Fair share per model group"); empty when they name none.
     */
    public static Map<String, Map<ModelGroup, Long>> perGroup(
            Map<String, Team> teams,
            Collection<PlacedJob> placed,
            Collection<JobSpec> waiting,
            List<NodeSpec> nodes,
            Map<String, Double> past) {
        Map<String, Map<ModelGroup, Long>> shares = new HashMap<>();
        if (!GroupShares.declared(teams)) {
            return shares;
        }
        GroupShares groups = groupShares(teams, placed, waiting, nodes, past);
        for (ModelGroup g : groups.groups()) {
            groups.in(g)
                    .forEach((team, milli) ->
                            shares.computeIfAbsent(team, t -> new HashMap<>()).put(g, milli));
        }
        return shares;
    }

    private static GroupShares groupShares(
            Map<String, Team> teams,
            Collection<PlacedJob> placed,
            Collection<JobSpec> waiting,
            List<NodeSpec> nodes,
            Map<String, Double> past) {
        QuotaLedger ledger = new QuotaLedger(teams, QuotaStates.nodeModels(nodes));
        placed.forEach(ledger::add);
        return GroupShares.of(ledger, waiting, nodes, past);
    }

    /**
     * The fair shares for a demand already summed per team (a replay keeps these sums as jobs come and go, instead of
     * listing every job at each instant).
     *
     * @param demand   per team, the GPU milli it holds and waits for
     * @param capacity the cluster's GPU milli
     */
    public static Map<String, Long> fairShares(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        return FairShare.of(teams, demand, capacity);
    }

    /**
     * Each team's entitlement to its guarantee for a demand summed per team: its guarantee as far as it has demand for
     * it, met in proportion to the guarantees where they exceed the cluster (the first step of the fair share,
     * docs/fairness.md: a guarantee is capped by the cluster).
     */
    public static Map<String, Long> guaranteed(Map<String, Team> teams, Map<String, Long> demand, long capacity) {
        return FairShare.guaranteed(teams, demand, capacity);
    }

    /** Whether the quotas name model groups: then the scheduler divides fair shares per group ({@link #perGroup}). */
    public static boolean perModelGroup(Map<String, Team> teams) {
        return GroupShares.declared(teams);
    }

    /**
     * Per team whose guarantee is split by GPU model, per cluster model group, the part of its group guarantee the
     * group's GPUs can meet: met in proportion where a group's guarantees exceed its GPUs, nothing for a declared
     * group without GPUs in the cluster (absent from the map).
     */
    public static Map<String, Map<ModelGroup, Long>> groupGuaranteesMet(Map<String, Team> teams, List<NodeSpec> nodes) {
        return GroupShares.guaranteesMet(teams, nodes);
    }
}

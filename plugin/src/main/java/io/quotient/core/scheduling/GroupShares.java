package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Department;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Fair shares per GPU model group, for a cluster whose quotas declare model groups (docs/fairness.md, "Fair share
 * per model group"): each group's GPUs are divided on their own, by {@link FairShare}'s division (guarantees first,
 * then by priority tier and weighted max-min, departments on two levels), among the teams with demand that can use
 * the group's models. A team's guarantee in a group is its group guarantee when its guarantee is split by group;
 * a team whose guarantee is "any model" counts it against each group in proportion to what it holds there
 * ({@link QuotaLedger#guaranteeIn}). The groups are the declared ones with GPUs in the cluster, plus one group of
 * every other model ("the rest"), so that every GPU belongs to exactly one group.
 */
final class GroupShares {

    private final Map<ModelGroup, Map<String, Long>> shares;
    private final Map<ModelGroup, Long> capacity;
    /** Per team and group ({@link #pastKey}), its decayed past borrowing there in milli. */
    private final Map<String, Double> past;

    private GroupShares(
            Map<ModelGroup, Map<String, Long>> shares, Map<ModelGroup, Long> capacity, Map<String, Double> past) {
        this.shares = shares;
        this.capacity = capacity;
        this.past = past;
    }

    /** Whether any team or department names model groups (guarantees or maxima): then fair shares are per group. */
    static boolean declared(Map<String, Team> teams) {
        return teams.values().stream().anyMatch(GroupTargets::applies);
    }

    /**
     * The cluster's model groups, in name order: every declared group with GPUs in the cluster, then the rest of the
     * cluster's models as one group (absent when no model is left).
     */
    static List<ModelGroup> clusterGroups(Map<String, Team> teams, Collection<NodeSpec> nodes) {
        Set<String> models = new TreeSet<>();
        nodes.stream().filter(n -> n.gpuCount() > 0).forEach(n -> models.add(n.gpuModel()));
        Map<String, ModelGroup> declared = new TreeMap<>();
        for (Team t : teams.values()) {
            addGroups(declared, t.modelGuarantees(), models);
            if (t.department() != null) {
                addGroups(declared, t.department().modelGuarantees(), models);
            }
        }
        List<ModelGroup> groups = new ArrayList<>(declared.values());
        Set<String> rest = new TreeSet<>(models);
        groups.forEach(g -> rest.removeAll(g.models()));
        if (!rest.isEmpty()) {
            groups.add(new ModelGroup(rest));
        }
        return groups;
    }

    private static void addGroups(Map<String, ModelGroup> into, ModelGuarantees declared, Set<String> clusterModels) {
        for (ModelGuarantee g : declared.groups()) {
            if (g.group().models().stream().anyMatch(clusterModels::contains)) {
                into.putIfAbsent(g.group().name(), g.group());
            }
        }
    }

    /**
     * @param ledger  the whole ledger, with the jobs that hold capacity
     * @param waiting the jobs that want capacity besides those placed
     * @param past    per team and per {@link #pastKey}, decayed past borrowing in milli (empty: instantaneous)
     */
    static GroupShares of(
            QuotaLedger ledger, Collection<JobSpec> waiting, List<NodeSpec> nodes, Map<String, Double> past) {
        List<ModelGroup> groups = clusterGroups(ledger.teams(), nodes);
        Map<ModelGroup, Long> capacity = new LinkedHashMap<>();
        Map<ModelGroup, Map<String, Long>> demand = new HashMap<>();
        Map<ModelGroup, Long> room = new HashMap<>();
        for (ModelGroup g : groups) {
            long gpus = gpusOf(g, nodes);
            capacity.put(g, gpus);
            Map<String, Long> wants = new HashMap<>();
            long held = 0;
            for (Team t : ledger.teams().values()) {
                wants.put(t.name(), ledger.heldIn(t.name(), g));
                held += ledger.heldIn(t.name(), g);
            }
            demand.put(g, wants);
            room.put(g, gpus - held);
        }
        for (JobSpec j : waiting) {
            ModelGroup g = counted(j, groups, capacity, room);
            if (g != null) {
                long least = Demands.leastMilli(j, nodes);
                demand.get(g).merge(j.team(), least, Long::sum);
                room.merge(g, -least, Long::sum);
            }
        }
        Map<ModelGroup, Map<String, Long>> shares = new LinkedHashMap<>();
        for (ModelGroup g : groups) {
            Map<String, Team> viewed = new LinkedHashMap<>();
            Map<String, Double> pastIn = new HashMap<>();
            for (Team t : ledger.teams().values()) {
                viewed.put(t.name(), viewedIn(ledger, t, g));
                Double used = past.get(pastKey(t.name(), g));
                if (used != null) {
                    pastIn.put(t.name(), used);
                }
                if (t.department() != null) {
                    String department = FairShare.departmentKey(t.department().name());
                    Double departmentUsed = past.get(pastKey(department, g));
                    if (departmentUsed != null) {
                        pastIn.put(department, departmentUsed);
                    }
                }
            }
            shares.put(g, FairShare.of(viewed, demand.get(g), capacity.get(g), pastIn));
        }
        return new GroupShares(shares, capacity, past);
    }

    /**
     * The group a waiting job's demand counts in: the one group it may use, or, for a job that may use several (an
     * unpinned one), the one with the most GPUs not yet held or wanted by the jobs counted before it (where it is most
     * likely to land on idle GPUs), the first by name among equals; null when it may use none. Counting it in every
     * group it may use would make its team want more than it asks, and reclaim for it in each group.
     */
    private static ModelGroup counted(
            JobSpec job, List<ModelGroup> groups, Map<ModelGroup, Long> capacity, Map<ModelGroup, Long> room) {
        ModelGroup best = null;
        for (ModelGroup g : groups) {
            if (capacity.get(g) > 0 && usable(job, g) && (best == null || room.get(g) > room.get(best))) {
                best = g;
            }
        }
        return best;
    }

    /**
     * Per team whose guarantee is split by model group, its guarantee in each of the cluster's groups as the group's
     * GPUs can meet it: the first step of the group's division ({@link FairShare#guaranteed}) with every team claiming
     * its whole guarantee there, so a group's guarantees beyond its GPUs are met in proportion, and a declared group
     * with no GPUs in the cluster meets none (it is no cluster group).
     */
    static Map<String, Map<ModelGroup, Long>> guaranteesMet(Map<String, Team> teams, List<NodeSpec> nodes) {
        QuotaLedger ledger = new QuotaLedger(teams, QuotaStates.nodeModels(nodes));
        Map<String, Map<ModelGroup, Long>> met = new HashMap<>();
        for (ModelGroup g : clusterGroups(teams, nodes)) {
            long gpus = gpusOf(g, nodes);
            Map<String, Team> viewed = new LinkedHashMap<>();
            Map<String, Long> claims = new HashMap<>();
            for (Team t : teams.values()) {
                Team in = viewedIn(ledger, t, g);
                viewed.put(t.name(), in);
                claims.put(t.name(), in.guaranteedMilli());
            }
            FairShare.guaranteed(viewed, claims, gpus).forEach((team, milli) -> {
                if (teams.get(team).splitsGuarantee()) {
                    met.computeIfAbsent(team, x -> new HashMap<>()).put(g, milli);
                }
            });
        }
        return met;
    }

    /** The GPU milli of the nodes of the group's models. */
    private static long gpusOf(ModelGroup g, List<NodeSpec> nodes) {
        return nodes.stream()
                .filter(n -> g.contains(n.gpuModel()))
                .mapToLong(n -> n.gpuCount() * 1000L)
                .sum();
    }

    /** Whether the job may run on a model of the group (an unpinned job on any). */
    static boolean usable(JobSpec job, ModelGroup g) {
        return job.allowedModels().isEmpty() || job.allowedModels().stream().anyMatch(g::contains);
    }

    /** The team as the group's division sees it: its guarantee and maximum there, its department's likewise. */
    private static Team viewedIn(QuotaLedger ledger, Team t, ModelGroup g) {
        long max = t.maxMilli();
        Optional<ModelGuarantee> own = t.modelGuarantees().overlapping(g).filter(ModelGuarantee::hasMax);
        if (own.isPresent()) {
            max = Math.min(max, own.get().maxMilli());
        }
        Department d = t.department();
        Department inGroup = null;
        if (d != null) {
            long dmax = d.modelGuarantees()
                    .overlapping(g)
                    .filter(ModelGuarantee::hasMax)
                    .map(x -> Math.min(x.maxMilli(), d.maxMilli()))
                    .orElse(d.maxMilli());
            long dg = ledger.departmentGuaranteeIn(d, g);
            inGroup = new Department(d.name(), dg, Math.max(dmax, dg), d.overQuotaWeight(), ModelGuarantees.NONE);
        }
        long guaranteed = ledger.guaranteeIn(t.name(), g);
        return t.withQuota(guaranteed, Math.max(max, guaranteed), inGroup);
    }

    /** The key of a team's decayed past borrowing in one group, beside its whole-cluster key (its name). */
    static String pastKey(String team, ModelGroup g) {
        return team + " in " + g.name();
    }

    List<ModelGroup> groups() {
        return List.copyOf(shares.keySet());
    }

    /** The group's fair shares, per team, in milli. */
    Map<String, Long> in(ModelGroup g) {
        return shares.getOrDefault(g, Map.of());
    }

    long share(String team, ModelGroup g) {
        return in(g).getOrDefault(team, 0L);
    }

    /** Per team, its fair shares summed over the groups: its fair share of the cluster. */
    Map<String, Long> summed() {
        Map<String, Long> sum = new HashMap<>();
        shares.values().forEach(s -> s.forEach((team, milli) -> sum.merge(team, milli, Long::sum)));
        return sum;
    }

    /**
     * The team's fair-share position in the group, as the borrowing order reads it: what it borrows there (its holding
     * beyond its guarantee in the group) plus its decayed past borrowing there, per unit of weight; for a team in a
     * department, within its department's position in the group (the department's borrowing beyond its guarantee
     * there), as the cluster's position is ({@link SharePosition#within}): a team of a department borrowing much of
     * the group waits behind one of a department borrowing little, whatever the teams' own positions.
     */
    SharePosition position(QuotaLedger ledger, String team, ModelGroup g) {
        Team t = ledger.team(team);
        long borrowed = Math.max(0, ledger.heldIn(team, g) - ledger.guaranteeIn(team, g));
        SharePosition own = SharePosition.of(borrowed + past.getOrDefault(pastKey(team, g), 0.0), t.overQuotaWeight());
        Department d = t.department();
        if (d == null) {
            return own;
        }
        long departmentBorrowed =
                Math.max(0, ledger.departmentHeldIn(d.name(), g) - ledger.departmentGuaranteeIn(d, g));
        String key = pastKey(FairShare.departmentKey(d.name()), g);
        return own.within(SharePosition.of(departmentBorrowed + past.getOrDefault(key, 0.0), d.overQuotaWeight()));
    }

    /**
     * The groups a borrowing job tries, in order: those with idle GPUs for it first (no one need lose a job), then
     * the team furthest below its fair share there first, then by name. The first is the group the job would land in.
     *
     * @param idleIn per group, the idle GPU milli on nodes of its models the job may use
     * @param least  the GPU milli the job takes at least
     */
    List<ModelGroup> landingOrder(QuotaLedger ledger, JobSpec job, Map<ModelGroup, Long> idleIn, long least) {
        Comparator<ModelGroup> order = Comparator.<ModelGroup>comparingInt(
                        g -> idleIn.getOrDefault(g, 0L) >= least ? 0 : 1)
                .thenComparingLong(g -> -(share(job.team(), g) - ledger.heldIn(job.team(), g)))
                .thenComparing(ModelGroup::name);
        return shares.keySet().stream()
                .filter(g -> usable(job, g) && capacity.getOrDefault(g, 0L) > 0)
                .sorted(order)
                .toList();
    }
}

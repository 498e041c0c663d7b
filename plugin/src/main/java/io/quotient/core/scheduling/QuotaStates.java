package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.ModelGroupUsage;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which placed jobs are inside their team's guarantee, recomputed from what the team holds now (never fixed at a
 * job's arrival): non-preemptible jobs always (they run only within the guarantee), then the smallest set of the
 * team's preemptible jobs that covers the rest of the guarantee; everything else is borrowed. A team holding 5, 2
 * and 1 GPUs against a guarantee of 4 has its 5-GPU job in quota and lends out the 2 and the 1.
 *
 * <p>A team whose guarantee is split by GPU model group ({@link ModelGuarantees#splitsGuarantee()}) is covered group
 * by group: a job counts against the group of its node's GPU model, the smallest cover of each group's guarantee is
 * in quota, and jobs on models outside every group are borrowed.
 *
 * <p>The smallest covering set is exact (subset sums over the jobs' GPU units) when the team's jobs are few enough
 * for that to be cheap, else a best-fit approximation.
 */
public final class QuotaStates {

    /** Work bound for the exact subset-sum search (jobs × guarantee in units of the jobs' common divisor). */
    private static final long EXACT_WORK = 4_000_000;

    /** Among equally small sets, jobs of higher priority and older ones are in quota. */
    private static final Comparator<PlacedJob> PREFERRED = Comparator.comparing(
                    (PlacedJob j) -> -j.spec().priority())
            .thenComparing(PlacedJob::startedAt)
            .thenComparing(PlacedJob::id, JobNames::compare);

    private QuotaStates() {}

    /** The jobs with their quota state as it is now, in their original order (no team's guarantee split by model). */
    public static List<PlacedJob> current(List<PlacedJob> placed, Map<String, Team> teams) {
        return current(placed, teams, Map.of());
    }

    /**
     * The jobs with their quota state as it is now, in their original order.
     *
     * @param nodeModels per node name, its GPU model (which group of a split guarantee a job counts against)
     */
    public static List<PlacedJob> current(
            List<PlacedJob> placed, Map<String, Team> teams, Map<String, String> nodeModels) {
        return current(placed, teams, nodeModels, QuotaCovers.NONE);
    }

    /**
     * The jobs with their quota state as it is now, in their original order, the teams' covers reused from
     * {@code covers} where their jobs are as they were.
     */
    static List<PlacedJob> current(
            List<PlacedJob> placed, Map<String, Team> teams, Map<String, String> nodeModels, QuotaCovers covers) {
        NamedLookup<List<PlacedJob>> byTeam = NamedLookup.inOrder();
        placed.forEach(
                j -> byTeam.getOrCreate(j.spec().team(), t -> new ArrayList<>()).add(j));
        NamedLookup<TeamCover> cover = NamedLookup.empty();
        byTeam.handOver()
                .forEach((team, jobs) -> cover.getOrCreate(team, name -> {
                    Team t = teams.get(name);
                    return t != null && t.splitsGuarantee()
                            ? new TeamCover(inQuotaByGroup(jobs, t.modelGuarantees(), nodeModels), false, false)
                            : inQuota(jobs, t != null ? t.guaranteedMilli() : 0, name, covers);
                }));
        List<PlacedJob> now = new ArrayList<>(placed.size());
        for (PlacedJob j : placed) {
            QuotaState state = cover.get(j.spec().team()).contains(j) ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA;
            now.add(j.quotaState() == state ? j : j.withQuotaState(state));
        }
        return Collections.unmodifiableList(now);
    }

    /**
     * Which of one team's jobs are in quota: those listed, and besides them every non-preemptible job or every
     * preemptible one where the flags say so. Every decision recomputes the states of every placed job, and most
     * teams hold all their jobs in quota or all their preemptible ones out: a set of every job in quota, filled and
     * asked for each, was much of the cost.
     */
    private record TeamCover(Set<JobId> listed, boolean nonPreemptibleIn, boolean preemptibleIn) {
        boolean contains(PlacedJob j) {
            return (j.spec().preemptible() ? preemptibleIn : nonPreemptibleIn) || listed.contains(j.id());
        }
    }

    /**
     * The jobs whose quota state, as given (stored at placement), differs from the one recomputed now, at most
     * {@code max} of them in the jobs' order: the labels to rewrite. Bounded because one change of a team (a job
     * placed or gone, its guarantee changed) may reshuffle the smallest cover of many of its jobs at once.
     */
    public static List<QuotaRelabel> stale(List<PlacedJob> placed, Map<String, Team> teams, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at most " + max + " labels per pass: give 1 or more");
        }
        List<PlacedJob> now = current(placed, teams);
        List<QuotaRelabel> stale = new ArrayList<>();
        for (int i = 0; i < placed.size() && stale.size() < max; i++) {
            if (placed.get(i).quotaState() != now.get(i).quotaState()) {
                stale.add(new QuotaRelabel(now.get(i).id(), now.get(i).quotaState()));
            }
        }
        return stale;
    }

    /** Per node name, its GPU model: which model group a job on it counts against. */
    public static Map<String, String> nodeModels(List<NodeSpec> nodes) {
        Map<String, String> models = new HashMap<>();
        nodes.forEach(n -> models.putIfAbsent(n.name(), n.gpuModel()));
        return models;
    }

    /** A split team's jobs inside the guarantees of their groups; jobs outside every group are borrowed. */
    private static Set<JobId> inQuotaByGroup(
            List<PlacedJob> jobs, ModelGuarantees groups, Map<String, String> nodeModels) {
        Map<ModelGuarantee, List<PlacedJob>> byGroup = new LinkedHashMap<>();
        for (PlacedJob j : jobs) {
            groups.forModel(nodeModels.getOrDefault(j.node(), ""))
                    .ifPresent(g ->
                            byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(j));
        }
        Set<JobId> in = new HashSet<>();
        byGroup.forEach((g, groupJobs) -> in.addAll(inQuota(groupJobs, g.guaranteedMilli())));
        return in;
    }

    /** One team's jobs inside its guarantee. */
    static Set<JobId> inQuota(List<PlacedJob> jobs, long guaranteed) {
        TeamCover cover = inQuota(jobs, guaranteed, null, QuotaCovers.NONE);
        Set<JobId> in = new HashSet<>();
        for (PlacedJob j : jobs) {
            if (cover.contains(j)) {
                in.add(j.id());
            }
        }
        return in;
    }

    /**
     * {@link #inQuota(List, long)} as a {@link TeamCover}, the team's smallest cover, when one is searched, reused
     * from {@code covers}.
     */
    private static TeamCover inQuota(List<PlacedJob> jobs, long guaranteed, String team, QuotaCovers covers) {
        long rest = guaranteed;
        List<PlacedJob> preemptible = new ArrayList<>();
        for (PlacedJob j : jobs) {
            if (j.spec().preemptible()) {
                preemptible.add(j);
            } else {
                rest -= j.gpuMilli();
            }
        }
        if (rest <= 0) {
            return new TeamCover(Set.of(), true, false);
        }
        long sum = 0;
        for (PlacedJob j : preemptible) {
            sum += j.gpuMilli();
        }
        if (sum <= rest) {
            return new TeamCover(Set.of(), true, true);
        }
        // sorted only when a cover is chosen: a team within its guarantee (most of them) has every job in quota
        long target = rest;
        return new TeamCover(
                covers.inQuota(team, preemptible, target, () -> {
                    List<PlacedJob> preferred = new ArrayList<>(preemptible);
                    preferred.sort(PREFERRED);
                    return smallestCover(preferred, target);
                }),
                true,
                false);
    }

    private static Set<JobId> smallestCover(List<PlacedJob> jobs, long target) {
        long unit = 0;
        long largest = 0;
        for (PlacedJob j : jobs) {
            unit = gcd(unit, j.gpuMilli());
            largest = Math.max(largest, j.gpuMilli());
        }
        if (unit == 0) {
            return Set.of();
        }
        long cap = (target + unit - 1) / unit + largest / unit;
        if (cap * jobs.size() > EXACT_WORK) {
            return bestFit(jobs, target);
        }
        return exact(jobs, target, unit, (int) cap);
    }

    /** 0/1 subset sums; {@code from[s]} is the job that first reached sum s (earlier jobs, preferred, win ties). */
    private static Set<JobId> exact(List<PlacedJob> jobs, long target, long unit, int cap) {
        int[] from = new int[cap + 1];
        Arrays.fill(from, -1);
        boolean[] reached = new boolean[cap + 1];
        reached[0] = true;
        int need = (int) ((target + unit - 1) / unit);
        // no sum above top is reached yet; once need is, it is the best and later jobs change no from[s] up to it
        int top = 0;
        for (int i = 0; i < jobs.size() && !reached[need]; i++) {
            int size = (int) (jobs.get(i).gpuMilli() / unit);
            for (int s = Math.min(cap - size, top); s >= 0; s--) {
                if (reached[s] && !reached[s + size]) {
                    reached[s + size] = true;
                    from[s + size] = i;
                }
            }
            top = Math.min(cap, top + size);
        }
        int best = need;
        while (best <= cap && !reached[best]) {
            best++;
        }
        Set<JobId> chosen = new HashSet<>();
        for (int s = best; s > 0; ) {
            PlacedJob j = jobs.get(from[s]);
            chosen.add(j.id());
            s -= (int) (j.gpuMilli() / unit);
        }
        return chosen;
    }

    /** Largest first; a job that would overshoot is remembered as a way to finish and skipped for smaller ones. */
    private static Set<JobId> bestFit(List<PlacedJob> jobs, long target) {
        List<PlacedJob> bySize = jobs.stream()
                .sorted(Comparator.comparingLong(PlacedJob::gpuMilli).reversed())
                .toList();
        List<PlacedJob> taken = new ArrayList<>();
        long sum = 0;
        long bestSum = Long.MAX_VALUE;
        Set<JobId> best = Set.of();
        for (PlacedJob j : bySize) {
            if (sum + j.gpuMilli() >= target) {
                if (sum + j.gpuMilli() < bestSum) {
                    bestSum = sum + j.gpuMilli();
                    Set<JobId> option = new HashSet<>();
                    taken.forEach(t -> option.add(t.id()));
                    option.add(j.id());
                    best = option;
                }
            } else {
                taken.add(j);
                sum += j.gpuMilli();
            }
        }
        return best;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * Per model group of the team, what it holds there and how much of it is in quota, for reports.
     *
     * @param current the jobs with their current quota states ({@link #current(List, Map, Map)})
     */
    public static List<ModelGroupUsage> byGroup(Team team, List<PlacedJob> current, Map<String, String> nodeModels) {
        List<ModelGroupUsage> usage = new ArrayList<>();
        for (ModelGuarantee g : team.modelGuarantees().groups()) {
            long held = 0;
            long in = 0;
            for (PlacedJob j : current) {
                if (j.spec().team().equals(team.name()) && g.group().contains(nodeModels.getOrDefault(j.node(), ""))) {
                    held += j.gpuMilli();
                    in += j.quotaState() == QuotaState.IN_QUOTA ? j.gpuMilli() : 0;
                }
            }
            usage.add(new ModelGroupUsage(g, held, team.splitsGuarantee() ? in : 0));
        }
        return usage;
    }

    /** Milli held in quota per team, for reports. */
    public static Map<String, Long> inQuotaMilli(List<PlacedJob> current) {
        Map<String, Long> sums = new HashMap<>();
        current.stream()
                .filter(j -> j.quotaState() == QuotaState.IN_QUOTA)
                .forEach(j -> sums.merge(j.spec().team(), j.gpuMilli(), Long::sum));
        return sums;
    }
}

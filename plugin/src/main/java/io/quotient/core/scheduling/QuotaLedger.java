package io.quotient.core.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each team holds, in GPU milli, split into in-quota (inside its guarantee) and borrowed. Mutable: a plan
 * under construction adds and removes jobs as it goes.
 */
final class QuotaLedger {

    /**
     * Which placed jobs are inside their team's guarantee now. Recorded states are a hint, not the truth: when
     * in-quota jobs finish, borrowed ones move into the freed guarantee (and become protected), and a lowered
     * guarantee makes some in-quota work borrowed. Non-preemptible jobs are counted first (they may only run in
     * quota), then jobs already in quota, then by priority and age; each is in quota while it fits the guarantee.
     */
    private static final Comparator<PlacedJob> CLAIM_ORDER = Comparator
            .comparing((PlacedJob j) -> j.spec().preemptible())
            .thenComparing(j -> j.quotaState() != QuotaState.IN_QUOTA)
            .thenComparing(j -> -j.spec().priority())
            .thenComparing(PlacedJob::startedAt)
            .thenComparing(j -> j.id().toString());

    private final Map<String, Team> teams;
    private final Map<String, Long> inQuota = new HashMap<>();
    private final Map<String, Long> total = new HashMap<>();

    QuotaLedger(Map<String, Team> teams) {
        this.teams = teams;
    }

    /** The jobs with their quota state as it is now (see {@link #CLAIM_ORDER}), in their original order. */
    static List<PlacedJob> withCurrentQuotaStates(List<PlacedJob> placed, Map<String, Team> teams) {
        Map<String, List<PlacedJob>> byTeam = new LinkedHashMap<>();
        placed.forEach(j -> byTeam.computeIfAbsent(j.spec().team(), t -> new ArrayList<>()).add(j));
        Map<JobId, QuotaState> states = new HashMap<>();
        byTeam.forEach((team, jobs) -> {
            long guaranteed = teams.containsKey(team) ? teams.get(team).guaranteedMilli() : 0;
            long used = 0;
            for (PlacedJob job : jobs.stream().sorted(CLAIM_ORDER).toList()) {
                boolean fits = used + job.gpuMilli() <= guaranteed;
                states.put(job.id(), fits ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA);
                used += fits ? job.gpuMilli() : 0;
            }
        });
        return placed.stream().map(j -> j.quotaState() == states.get(j.id()) ? j
                : new PlacedJob(j.spec(), j.node(), j.gpuIndices(), j.milliPerGpu(), states.get(j.id()), j.startedAt()))
                .toList();
    }

    void add(PlacedJob job) {
        change(job, job.gpuMilli());
    }

    void remove(PlacedJob job) {
        change(job, -job.gpuMilli());
    }

    private void change(PlacedJob job, long milli) {
        String team = job.spec().team();
        total.merge(team, milli, Long::sum);
        if (job.quotaState() == QuotaState.IN_QUOTA) {
            inQuota.merge(team, milli, Long::sum);
        }
    }

    /** The team's configuration; a team no longer configured has no guarantee and no maximum. */
    Team team(String name) {
        Team team = teams.get(name);
        return team != null ? team : new Team(name, 0, Team.UNLIMITED, 0, Integer.MIN_VALUE);
    }

    Map<String, Team> teams() {
        return teams;
    }

    long inQuota(String team) {
        return inQuota.getOrDefault(team, 0L);
    }

    long total(String team) {
        return total.getOrDefault(team, 0L);
    }

    /** Whether {@code milli} more fits the team's guarantee. */
    boolean fitsGuarantee(String team, long milli) {
        return inQuota(team) + milli <= team(team).guaranteedMilli();
    }

    /** Whether {@code milli} more would take the team beyond its maximum. */
    boolean exceedsMax(String team, long milli) {
        Team t = team(team);
        return t.hasMax() && total(team) + milli > t.maxMilli();
    }
}

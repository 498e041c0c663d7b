package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The smallest cover of each team's guarantee by its preemptible jobs ({@link QuotaStates#inQuota}), kept from one
 * decision to the next and reused while the jobs and the milli to cover are what they were: a scheduler decides every
 * few seconds, and between two decisions most teams neither start nor lose a job, yet a team above its guarantee has
 * its cover searched afresh each time. The cover depends on nothing but the jobs, in their order, and the milli to
 * cover, so a reused one is the one that would be computed. One per scheduler; decisions on several threads may share
 * it (each entry is replaced whole).
 */
final class QuotaCovers {

    /** Computes every cover afresh and keeps none (for one-off reports and tests). */
    static final QuotaCovers NONE = new QuotaCovers(0);

    private record Cover(long target, List<PlacedJob> jobs, Set<JobId> inQuota) {}

    private final Map<String, Cover> byTeam = new ConcurrentHashMap<>();
    private final int maxTeams;

    /** @param maxTeams at most this many teams' covers are kept (the memory of teams that come and go stays bounded) */
    QuotaCovers(int maxTeams) {
        this.maxTeams = maxTeams;
    }

    /** A cover for the teams of a cluster: far more teams than any cluster configures. */
    QuotaCovers() {
        this(10_000);
    }

    /**
     * The team's cover of {@code target} milli by {@code jobs}: the kept one when the jobs (equal, in the same order)
     * and the target are the same as when it was computed, else {@code compute}'s answer, kept for next time. The set
     * must not be changed, nor the jobs by {@code compute}.
     */
    Set<JobId> inQuota(String team, List<PlacedJob> jobs, long target, Supplier<Set<JobId>> compute) {
        Cover kept = team == null ? null : byTeam.get(team);
        if (kept != null && kept.target() == target && sameJobs(kept.jobs(), jobs)) {
            return kept.inQuota();
        }
        Set<JobId> computed = compute.get();
        if (team != null && maxTeams > 0 && (kept != null || byTeam.size() < maxTeams)) {
            byTeam.put(team, new Cover(target, List.copyOf(jobs), computed));
        }
        return computed;
    }

    private static boolean sameJobs(List<PlacedJob> kept, List<PlacedJob> jobs) {
        if (kept.size() != jobs.size()) {
            return false;
        }
        for (int i = 0; i < jobs.size(); i++) {
            // the same object in the common case (the replay hands the running jobs' placements as they are)
            if (!Objects.equals(kept.get(i), jobs.get(i))) {
                return false;
            }
        }
        return true;
    }
}

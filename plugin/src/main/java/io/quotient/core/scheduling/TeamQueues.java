package io.quotient.core.scheduling;

import io.quotient.core.model.PendingJob;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Waiting jobs split per team, each team's in the order added, the teams in the order first met. A pass splits the
 * whole queue at least once, and a queue in arrival order is mostly runs of one team's jobs: the last team's queue is
 * kept at hand, so a run costs one lookup, not one per job.
 */
final class TeamQueues {

    private final Map<String, Deque<PendingJob>> byTeam = new LinkedHashMap<>();
    private String lastTeam;
    private Deque<PendingJob> last;

    void add(PendingJob job) {
        String team = job.spec().team();
        if (team != lastTeam) {
            last = byTeam.computeIfAbsent(team, t -> new ArrayDeque<>());
            lastTeam = team;
        }
        last.add(job);
    }

    /** Per team, its jobs in the order added; the map is live and the caller takes it over (it stops being kept). */
    Map<String, Deque<PendingJob>> takeAll() {
        lastTeam = null;
        last = null;
        return byTeam;
    }
}

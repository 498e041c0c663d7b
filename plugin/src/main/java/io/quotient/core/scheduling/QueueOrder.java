package io.quotient.core.scheduling;

import java.util.Comparator;
import java.util.Map;

/** The order waiting jobs are tried in: team priority, then job priority, then first come first served. */
final class QueueOrder {

    private QueueOrder() {
    }

    static Comparator<PendingJob> of(Map<String, Team> teams) {
        return Comparator
                .comparing((PendingJob p) -> teamPriority(teams, p.spec().team()), Comparator.reverseOrder())
                .thenComparing(p -> p.spec().priority(), Comparator.reverseOrder())
                .thenComparing(PendingJob::queuedAt)
                .thenComparing(p -> p.spec().id().toString());
    }

    private static int teamPriority(Map<String, Team> teams, String team) {
        Team t = teams.get(team);
        return t == null ? Integer.MIN_VALUE : t.priority();
    }
}

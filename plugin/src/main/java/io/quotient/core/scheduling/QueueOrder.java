package io.quotient.core.scheduling;

import io.quotient.core.model.PendingJob;
import io.quotient.core.model.Team;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Function;

/** The order waiting jobs are tried in: team priority, then job priority, then first come first served. */
final class QueueOrder {

    private QueueOrder() {}

    static Comparator<PendingJob> of(Map<String, Team> teams) {
        return Comparator.comparing(
                        (PendingJob p) -> teamPriority(teams, p.spec().team()), Comparator.reverseOrder())
                .thenComparing(p -> p.spec().priority(), Comparator.reverseOrder())
                .thenComparing(PendingJob::queuedAt)
                .thenComparing(p -> p.spec().id().toString());
    }

    /**
     * The order in which waiting jobs borrow idle capacity, comparing the next job of each team: team priority (idle
     * capacity goes to higher-priority teams first, as {@link FairShare} divides it), then the team's fair-share
     * position (the team furthest below its over-quota entitlement first, {@link SharePosition}), then job priority,
     * then arrival, as Kueue's fair sharing orders admissions; team name and job name only make the order total.
     *
     * @param position each job's team's fair-share position now (read at every comparison: it changes as jobs are
     *                 placed): with model groups, the team's position in the group the job would land in
     */
    static Comparator<PendingJob> borrowing(Map<String, Team> teams, Function<PendingJob, SharePosition> position) {
        return Comparator.comparing(
                        (PendingJob p) -> teamPriority(teams, p.spec().team()), Comparator.reverseOrder())
                .thenComparing(position)
                .thenComparing(p -> p.spec().priority(), Comparator.reverseOrder())
                .thenComparing(PendingJob::queuedAt)
                .thenComparing(p -> p.spec().team())
                .thenComparing(p -> p.spec().id().toString());
    }

    private static int teamPriority(Map<String, Team> teams, String team) {
        Team t = teams.get(team);
        return t == null ? Integer.MIN_VALUE : t.priority();
    }
}

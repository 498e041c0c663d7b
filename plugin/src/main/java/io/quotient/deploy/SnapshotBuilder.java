package io.quotient.deploy;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.PendingJob;
import io.quotient.core.scheduling.PlacedJob;
import io.quotient.core.scheduling.SchedulingSnapshot;
import io.quotient.core.scheduling.Team;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.TeamsSource;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Observes the cluster and the job records into the core's immutable snapshot. */
public final class SnapshotBuilder {

    private final ClusterObserver cluster;
    private final TeamsSource teamsSource;
    private final Clock clock;

    public SnapshotBuilder(ClusterObserver cluster, TeamsSource teamsSource, Clock clock) {
        this.cluster = cluster;
        this.teamsSource = teamsSource;
        this.clock = clock;
    }

    /**
     * The snapshot of these records. Jobs of teams no longer configured keep their capacity (their pods still
     * run) under a team with no guarantee, so their work counts as borrowed; they are not queued.
     *
     * @param decided a job decided separately (a new deploy), left out of the queue; may be empty
     */
    public SchedulingSnapshot build(List<JobRecord> records, Optional<JobId> decided) {
        Map<String, Team> teams = new LinkedHashMap<>(teamsSource.teams());
        List<PlacedJob> placed = new ArrayList<>();
        List<PendingJob> pending = new ArrayList<>();
        for (JobRecord r : records) {
            boolean knownTeam = teams.containsKey(r.id().team());
            if (r.phase().holdsCapacity()) {
                if (!knownTeam) {
                    teams.put(r.id().team(), Team.of(r.id().team(), 0));
                }
                placed.add(Placements.of(r));
            } else if (r.phase().waiting() && knownTeam && decided.map(id -> !id.equals(r.id())).orElse(true)) {
                pending.add(new PendingJob(r.spec(), r.createdAt()));
            }
        }
        return new SchedulingSnapshot(cluster.nodes(), cluster.fractionReadyNodes(), placed, pending, teams,
                clock.instant());
    }
}

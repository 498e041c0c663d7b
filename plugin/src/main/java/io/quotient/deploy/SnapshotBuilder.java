package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.TeamsSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Observes the cluster and the job records into the core's immutable snapshot. */
public final class SnapshotBuilder {

    private final ClusterObserver cluster;
    private final TeamsSource teamsSource;
    private final Clock clock;
    private final UsageAccounting usage;

    public SnapshotBuilder(ClusterObserver cluster, TeamsSource teamsSource, Clock clock) {
        this(cluster, teamsSource, clock, null);
    }

    /** @param usage where borrowing is recorded for decayed fair shares; null: fair shares have no memory */
    public SnapshotBuilder(ClusterObserver cluster, TeamsSource teamsSource, Clock clock, UsageAccounting usage) {
        this.cluster = cluster;
        this.teamsSource = teamsSource;
        this.clock = clock;
        this.usage = usage;
    }

    /**
     * The snapshot of these records. Jobs of teams no longer configured keep their capacity (their pods still
     * run) under a team with no guarantee, so their work counts as borrowed; they are not queued.
     *
     * @param decided a job decided separately (a new deploy), left out of the queue; may be empty
     * @param assumed placements decided but not yet in their records ({@link AssumedPlacements}): these jobs count
     *                as placed there
     */
    public SchedulingSnapshot build(List<JobRecord> records, Optional<JobId> decided, Map<JobId, PlacedJob> assumed) {
        Map<String, Team> teams = new LinkedHashMap<>(teamsSource.teams());
        List<PlacedJob> placed = new ArrayList<>();
        List<PendingJob> pending = new ArrayList<>();
        // assumed placements of jobs not recorded yet count too; a record holding capacity is already written
        Map<JobId, PlacedJob> assumedLeft = new HashMap<>(assumed);
        for (JobRecord r : records) {
            boolean knownTeam = teams.containsKey(r.id().team());
            PlacedJob assumedPlacement = assumedLeft.remove(r.id());
            if (assumedPlacement != null && r.phase().waiting()) {
                placed.add(assumedPlacement);
            } else if (r.phase().holdsCapacity()) {
                placed.add(Placements.of(r));
            } else if (r.phase().waiting()
                    && knownTeam
                    && decided.map(id -> !id.equals(r.id())).orElse(true)) {
                pending.add(new PendingJob(r.spec(), r.queuedAt()));
            }
        }
        placed.addAll(assumedLeft.values());
        // jobs of teams no longer configured keep their capacity, as borrowed
        for (PlacedJob p : placed) {
            teams.computeIfAbsent(p.spec().team(), name -> Team.of(name, 0));
        }
        return new SchedulingSnapshot(
                cluster.nodes(),
                cluster.fractionReadyNodes(),
                placed,
                pending,
                teams,
                clock.instant(),
                usage == null ? Map.of() : usage.observe(teams, placed, cluster.nodes()));
    }
}

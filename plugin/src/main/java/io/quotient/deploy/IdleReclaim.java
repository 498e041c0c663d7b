package io.quotient.deploy;

import io.quotient.core.idle.IdleDecider;
import io.quotient.core.idle.IdlePass;
import io.quotient.core.idle.IdleVerdict;
import io.quotient.core.idle.UtilisationSampler;
import io.quotient.core.model.JobId;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idle pass (periodic, leader only): samples each placed job's GPU utilisation from the node enforcers' pod
 * counters, lets the core decide which watched jobs are busy, warned or released ({@link IdlePass}, the pass the
 * replay runs too), applies the verdicts ({@link IdleRelease}) and tells the jobs that wait for an idle job's GPUs ({@link WaitNotes}). Runs under
 * the decision lock like every decision ({@link DecisionService#releaseIdle}); GPUs freed at once (a preempted or
 * stopped job) go to the queue in the same pass. Idle stretches are kept in memory: a replica that becomes the
 * leader starts them again from the enforcers' counters, whose first reading covers each pod's whole counting, so a
 * job idle since it started is seen idle since then at once.
 */
public final class IdleReclaim {

    private static final Logger LOG = LoggerFactory.getLogger(IdleReclaim.class);

    private final JobRecordStore store;
    private final ClusterObserver cluster;
    private final SnapshotBuilder snapshots;
    private final IdleRelease release;
    private final WaitNotes notes;
    private final LeadershipGate leadership;
    private final IdlePass idlePass;
    private UtilisationSampler sampler = new UtilisationSampler();

    public IdleReclaim(
            JobRecordStore store,
            ClusterObserver cluster,
            SnapshotBuilder snapshots,
            IdleDecider decider,
            IdleRelease release,
            WaitNotes notes,
            LeadershipGate leadership) {
        this.store = store;
        this.cluster = cluster;
        this.snapshots = snapshots;
        this.idlePass = new IdlePass(decider);
        this.release = release;
        this.notes = notes;
        this.leadership = leadership;
    }

    /**
     * One pass, under the decision lock: the verdicts (none on a follower, or when no team watches idleness) and
     * whether GPUs were freed at once (the queue should run).
     */
    public synchronized Pass pass() {
        if (!leadership.isLeader()) {
            sampler = new UtilisationSampler(); // a later term starts again from the counters
            idlePass.reset();
            notes.clear();
            return Pass.NONE;
        }
        List<JobRecord> records = store.listAll();
        SchedulingSnapshot snapshot = snapshots.build(records, Optional.empty(), Map.of());
        if (idlePass.record(snapshot, sampler.sample(cluster.podUsage())).isEmpty()) {
            notes.clear();
            return Pass.NONE;
        }
        Map<JobId, JobRecord> byId =
                records.stream().collect(Collectors.toMap(JobRecord::id, r -> r, (a, b) -> a, HashMap::new));
        List<IdleVerdict> verdicts = idlePass.decide(snapshot, job -> {
            JobRecord record = byId.get(job);
            Team team = snapshot.teams().get(job.team());
            return record != null
                    && team != null
                    && IdleRelease.requeues(record, team.idle().action());
        });
        Map<JobId, String> waiting = new LinkedHashMap<>();
        boolean freed = false;
        for (IdleVerdict verdict : verdicts) {
            verdict.waiter().ifPresent(w -> waiting.putIfAbsent(w, verdict.waiterNote()));
            JobRecord record = byId.get(verdict.job());
            if (record == null || !record.phase().holdsCapacity()) {
                continue;
            }
            try {
                freed |= release.apply(record, verdict);
            } catch (LeadershipLostException e) {
                LOG.warn("the idle pass stopped: {}", e.getMessage());
                return new Pass(verdicts, freed);
            } catch (RuntimeException e) {
                LOG.warn(
                        "the idle decision on job {} of team {} on node {} could not be applied: {}; it is taken again"
                                + " on the next pass",
                        record.id().name(),
                        record.id().team(),
                        record.status().node(),
                        e.toString());
            }
        }
        notes.replace(waiting);
        return new Pass(verdicts, freed);
    }

    /** What a pass decided, and whether it freed GPUs at once. */
    public record Pass(List<IdleVerdict> verdicts, boolean freed) {
        static final Pass NONE = new Pass(List.of(), false);
    }
}

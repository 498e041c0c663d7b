package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.WorkloadGateway;
import io.quotient.deploy.port.WorkloadPhase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the cluster match the records (desired state) and the records match what the workloads did (observed
 * state). Run before every queue decision and after a restart or a leader change; this is what makes a crash
 * at any point of a deploy or a preemption harmless:
 * <ul>
 *   <li>a placed job without a workload gets it (the crash came between the status write and the create);</li>
 *   <li>a preempted job whose stop was interrupted is stopped and re-queued;</li>
 *   <li>a waiting job whose old workload still runs, and a workload without a record, are stopped; a job's
 *       workload running more pods than it should (its controller did not remove them) loses the surplus;</li>
 *   <li>a reservation with no fraction on its GPU is released, and one that fractions need but is gone is made
 *       again;</li>
 *   <li>running, succeeded and failed workloads update their job's phase; finished jobs free their capacity;</li>
 *   <li>a placed or running job whose node (any node of a gang) left the cluster is re-queued, its workload
 *       stopped — never on a view of the nodes that is not known yet;</li>
 *   <li>a job governing a pod admitted by the webhook ({@link io.quotient.deploy.port.WorkloadRef#pod}) lives as long
 *       as its pod: when the pod is gone (the notebook stopped or deleted) the job ends and its record is removed,
 *       and a placement whose pod has not been created within the pod arrival grace is given up the same way, so
 *       GPUs are never held for a pod that does not come (its next create is decided afresh).</li>
 * </ul>
 */
public final class Reconciler {

    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

    private final JobRecordStore store;
    private final ClusterObserver cluster;
    private final WorkloadGateway gateway;
    private final JobTransitions transitions;
    private final ReservationKeeper reservations;
    private final Duration stopGrace;
    private final Duration podArrivalGrace;
    private final Clock clock;
    private final AbsentWorkloadBackoff absentWorkloads = new AbsentWorkloadBackoff();

    public Reconciler(
            JobRecordStore store,
            ClusterObserver cluster,
            WorkloadGateway gateway,
            JobTransitions transitions,
            ReservationKeeper reservations,
            Duration stopGrace) {
        this(
                store,
                cluster,
                gateway,
                transitions,
                reservations,
                stopGrace,
                DEFAULT_POD_ARRIVAL_GRACE,
                Clock.systemUTC());
    }

    /**
     * @param podArrivalGrace how long a placement waits for the pod it was made for (a pod governed at admission)
     *                        to be created before it is given up
     */
    public Reconciler(
            JobRecordStore store,
            ClusterObserver cluster,
            WorkloadGateway gateway,
            JobTransitions transitions,
            ReservationKeeper reservations,
            Duration stopGrace,
            Duration podArrivalGrace,
            Clock clock) {
        this.store = store;
        this.cluster = cluster;
        this.gateway = gateway;
        this.transitions = transitions;
        this.reservations = reservations;
        this.stopGrace = stopGrace;
        this.podArrivalGrace = podArrivalGrace;
        this.clock = clock;
    }

    /** The default of {@code quotient.scheduling.pod-arrival-grace}. */
    public static final Duration DEFAULT_POD_ARRIVAL_GRACE = Duration.ofSeconds(60);

    /**
     * What one pass found: how many jobs finished (capacity that the queue may now use) and the placed jobs whose
     * workload now runs. Those are left to {@link #recordRunning}, after the decision lock is released: a phase
     * that changes no capacity is not worth keeping every deploy waiting for hundreds of status writes.
     */
    public record Reconciliation(int finished, List<JobRecord> nowRunning) {}

    /** One pass, under the decision lock. */
    public Reconciliation reconcile() {
        Map<JobId, WorkloadPhase> workloads = cluster.workloads();
        Optional<Set<String>> existingNodes = cluster.existingNodes();
        List<JobRecord> records = store.listAll();
        int finished = 0;
        List<JobRecord> nowRunning = new ArrayList<>();
        Set<JobId> placed = new HashSet<>();
        records.stream().filter(r -> r.phase() == JobPhase.PLACED).forEach(r -> placed.add(r.id()));
        absentWorkloads.retainOnly(placed);
        for (JobRecord record : records) {
            WorkloadPhase workload = workloads.getOrDefault(record.id(), WorkloadPhase.ABSENT);
            Optional<String> lostNode = lostNode(record, existingNodes);
            if (lostNode.isPresent()) {
                finished += requeueFromLostNode(record, lostNode.get()) ? 1 : 0;
                continue;
            }
            if (workload == WorkloadPhase.RUNNING && record.phase() == JobPhase.PLACED) {
                nowRunning.add(record);
                continue;
            }
            try {
                finished += reconcileOne(record, workload) ? 1 : 0;
            } catch (LeadershipLostException e) {
                LOG.warn("{}; the reconciliation stops here", e.getMessage());
                return new Reconciliation(finished, List.of());
            } catch (RuntimeException e) {
                LOG.warn(
                        "reconciling job {} of team {} failed, retrying on the next pass: {}",
                        record.id().name(),
                        record.id().team(),
                        e.toString());
            }
        }
        if (!transitions.leads()) {
            // orphans and reservations are judged from this replica's view, which a new leader may have outrun
            LOG.warn("this replica lost the leadership during the reconciliation; orphans and reservations are left to"
                    + " the leader in office");
            return new Reconciliation(finished, List.of());
        }
        stopOrphans(workloads, records);
        removeSurplusPods(records);
        reservations.reconcile();
        return new Reconciliation(finished, nowRunning);
    }

    /**
     * Records that these placed jobs run; without the decision lock. A record a decision changed meanwhile (an
     * eviction) refuses the write by its version, and the next pass looks again.
     */
    public void recordRunning(List<JobRecord> placed) {
        for (JobRecord record : placed) {
            try {
                store.updateStatus(record, record.status().withPhase(JobPhase.RUNNING, null));
            } catch (RuntimeException e) {
                LOG.info(
                        "job {} of team {} on node {} runs, but its record could not say so yet ({}); the next pass"
                                + " retries",
                        record.id().name(),
                        record.id().team(),
                        record.status().node(),
                        e.getMessage());
            }
        }
    }

    /** The first node of a job holding capacity that is not in the cluster any more; none on an unknown view. */
    private static Optional<String> lostNode(JobRecord record, Optional<Set<String>> existingNodes) {
        if (existingNodes.isEmpty()
                || !record.phase().holdsCapacity()
                || record.status().node() == null) {
            return Optional.empty();
        }
        List<String> nodes = new ArrayList<>();
        nodes.add(record.status().node());
        record.status().otherReplicas().forEach(replica -> nodes.add(replica.node()));
        return nodes.stream()
                .filter(node -> !existingNodes.get().contains(node))
                .findFirst();
    }

    private boolean requeueFromLostNode(JobRecord record, String node) {
        try {
            transitions.requeueFromLostNode(record, node);
            return true;
        } catch (RuntimeException e) {
            LOG.warn(
                    "re-queueing job {} of team {} from removed node {} failed, retrying on the next pass: {}",
                    record.id().name(),
                    record.id().team(),
                    node,
                    e.toString());
            return false;
        }
    }

    private boolean reconcileOne(JobRecord record, WorkloadPhase workload) {
        JobPhase phase = record.phase();
        if (phase == JobPhase.PREEMPTED) {
            transitions.completeInterruptedEviction(record);
        } else if (phase == JobPhase.PENDING && workload.active()) {
            transitions.stopLeftOverWorkload(record);
        } else if (phase.holdsCapacity()) {
            return reconcilePlaced(record, workload);
        }
        return false;
    }

    private boolean reconcilePlaced(JobRecord record, WorkloadPhase workload) {
        if (workload != WorkloadPhase.ABSENT) {
            absentWorkloads.clear(record.id());
        }
        switch (workload) {
            case SUCCEEDED -> transitions.finish(record, JobPhase.SUCCEEDED, "completed");
            case FAILED -> transitions.finish(record, JobPhase.FAILED, "its pods failed; see the pods' logs");
            case RUNNING, STARTING -> {
                return false; // a placed job that now runs is left to recordRunning
            }
            case ABSENT -> {
                if (record.submission().adopted()
                        && record.submission().workload().isPod()) {
                    return podAbsent(record);
                }
                if (record.phase() == JobPhase.PLACED && record.submission().adopted()) {
                    deployAdoptedWithBackoff(record);
                    return false;
                }
                if (record.phase() == JobPhase.PLACED) {
                    transitions.deployIfBound(record);
                    return false;
                }
                // it ran and its workload is gone: removed outside Quotient (or garbage-collected unobserved)
                transitions.finish(
                        record,
                        JobPhase.FAILED,
                        "its workload disappeared while running; it was deleted"
                                + " outside Quotient. Delete and deploy the job again to rerun it");
            }
        }
        return true;
    }

    /**
     * Deploys a placed adopted workload that shows no pods, backed off ({@link AbsentWorkloadBackoff}): without its
     * operator the object carries the placement but no pod ever comes, and each pass would send it again.
     */
    private void deployAdoptedWithBackoff(JobRecord record) {
        Instant now = clock.instant();
        if (!absentWorkloads.due(record.id(), now)) {
            return;
        }
        boolean first = absentWorkloads.tried(record.id(), now);
        String kind = record.submission().workload().kind();
        if (first) {
            LOG.info(
                    "job {} of team {}: its {} {} has no pods on node {} yet (is its operator running?); the"
                            + " placement is applied again with a back-off of up to {} s",
                    record.id().name(),
                    record.id().team(),
                    kind,
                    record.submission().workload().name(),
                    record.status().node(),
                    AbsentWorkloadBackoff.CAP.toSeconds());
        } else {
            LOG.debug(
                    "job {} of team {}: its {} {} still has no pods; applying the placement again",
                    record.id().name(),
                    record.id().team(),
                    kind,
                    record.submission().workload().name());
        }
        transitions.deployIfBound(record);
    }

    /**
     * A placed or running job whose pod is not there: the pod went (stopped, deleted: the job ends), or it has not
     * been created yet after its placement (its controller retries the create; given up after the grace). Returns
     * whether the job ended (its capacity goes to the queue).
     */
    private boolean podAbsent(JobRecord record) {
        String pod = record.submission().workload().name();
        if (record.phase() == JobPhase.PLACED) {
            Instant placedAt = record.status().placedAt() == null
                    ? record.createdAt()
                    : record.status().placedAt();
            if (clock.instant().isBefore(placedAt.plus(podArrivalGrace))) {
                transitions.deployIfBound(record); // reserves its GPUs and learns their UUIDs for the admission
                return false;
            }
            LOG.info(
                    "job {} of team {}: pod {} was not created within {} s of its placement on node {}; the placement"
                            + " is given up and the job removed (a later create of the pod is decided again)",
                    record.id().name(),
                    record.id().team(),
                    pod,
                    podArrivalGrace.toSeconds(),
                    record.status().node());
        } else {
            LOG.info(
                    "job {} of team {} on node {} ends: its pod {} is gone (stopped or deleted)",
                    record.id().name(),
                    record.id().team(),
                    record.status().node(),
                    pod);
        }
        transitions.remove(record.id()).ifPresent(transitions::releaseGpusOf);
        return true;
    }

    /** A job holding capacity whose workload runs more pods than it should loses the surplus (see the gateway). */
    private void removeSurplusPods(List<JobRecord> records) {
        Map<JobId, Integer> surplus = cluster.surplusPods();
        if (surplus.isEmpty()) {
            return;
        }
        for (JobRecord record : records) {
            Integer pods = surplus.get(record.id());
            if (pods != null && record.phase().holdsCapacity()) {
                LOG.warn(
                        "job {} of team {} on node {} runs {} pod(s) more than its workload should (its controller did"
                                + " not remove them); removing them",
                        record.id().name(),
                        record.id().team(),
                        record.status().node(),
                        pods);
                try {
                    gateway.removeSurplusPods(record.id(), stopGrace);
                } catch (RuntimeException e) {
                    LOG.warn(
                            "removing surplus pods of job {} of team {} failed, retrying on the next pass: {}",
                            record.id().name(),
                            record.id().team(),
                            e.toString());
                }
            }
        }
    }

    private void stopOrphans(Map<JobId, WorkloadPhase> workloads, List<JobRecord> records) {
        Set<JobId> known = new HashSet<>();
        records.forEach(r -> known.add(r.id()));
        workloads.forEach((job, phase) -> {
            if (!known.contains(job) && phase.active()) {
                LOG.info(
                        "stopping workload of job {} of team {}: it has no record (deleted, or a crash before the"
                                + " record was removed)",
                        job.name(),
                        job.team());
                gateway.stop(job, stopGrace);
            }
        });
    }
}

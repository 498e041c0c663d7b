package io.quotient.core.scheduling;

import io.quotient.core.model.Demands;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Quotient's scheduler: quotas first (a team's guarantee is its own, borrowed capacity is taken back when the owner
 * needs it), then placement with a named policy (default {@code quotient}) to keep large jobs placeable.
 *
 * <p>Each call starts a fresh policy from the same seed, so a plan depends only on the snapshot and the workload. The
 * policy scores against the target workload fitted to the snapshot's nodes ({@link ClusterFittedWorkload}): a
 * workload whose multi-GPU shapes need more CPU per GPU than the nodes have would stop the policy from packing. In
 * the service that workload is learned from the jobs the scheduler has seen ({@link ObservedJobs}), so it expects
 * the shapes and model constraints its users actually submit.
 */
public final class QuotaScheduler implements Scheduler {

    public static final String DEFAULT_POLICY = "quotient";

    private final String policyName;
    private final long seed;
    private final ClusterFittedWorkload workload;
    private final ReclaimSettings reclaim;
    private final ObservedJobs observed;
    /** The teams' quota covers, reused by the next decision where a team's jobs are unchanged. */
    private final QuotaCovers covers = new QuotaCovers();

    /**
     * @param workload the expected task shapes, fitted to each snapshot's nodes before use
     * @throws IllegalArgumentException for an unknown policy name (the message lists the known ones) */
    public QuotaScheduler(String policyName, long seed, TargetWorkload workload) {
        this(policyName, seed, new ClusterFittedWorkload(workload));
    }

    /** @param workload the expected task shapes and their fitting, shared with whoever reports fragmentation */
    public QuotaScheduler(String policyName, long seed, ClusterFittedWorkload workload) {
        this(policyName, seed, workload, ReclaimSettings.DEFAULTS);
    }

    /** @param reclaim how eagerly capacity is taken back (fair-share hysteresis, moves per decision) */
    public QuotaScheduler(String policyName, long seed, ClusterFittedWorkload workload, ReclaimSettings reclaim) {
        this(policyName, seed, workload, reclaim, null);
    }

    /**
     * @param observed where the jobs of each snapshot are counted before deciding, so that {@code workload} (fitted
     *                 over the same learner) follows what the service runs; {@code null}: the workload stays as given
     */
    public QuotaScheduler(
            String policyName,
            long seed,
            ClusterFittedWorkload workload,
            ReclaimSettings reclaim,
            ObservedJobs observed) {
        this.observed = observed;
        this.reclaim = Objects.requireNonNull(reclaim, "reclaim");
        this.policyName = policyName;
        this.seed = seed;
        this.workload = workload;
        // a wrong name fails here, at start-up, not at the first decision
        PlacementPolicies.create(policyName, seed, workload.base());
    }

    /** The default policy with a typical workload. */
    public static QuotaScheduler withDefaults() {
        return new QuotaScheduler(DEFAULT_POLICY, 42, TargetWorkload.typical());
    }

    public String policyName() {
        return policyName;
    }

    @Override
    public Plan schedule(SchedulingSnapshot snapshot, JobSpec job) {
        List<JobSpec> waiting = new ArrayList<>(snapshot.pending().size() + 1);
        for (PendingJob p : snapshot.pending()) {
            waiting.add(p.spec());
        }
        waiting.add(job);
        PlanningRound round = new PlanningRound(snapshot, policy(snapshot, job), waiting, reclaim, covers);
        round.decide(job);
        return round.plan();
    }

    /**
     * Every job that runs within its team's guarantee is decided first (taking borrowed capacity back where needed),
     * the teams taking turns in {@link QueueOrder#CLAIMING} (the team holding the least of its guarantee first); then
     * idle capacity is lent: the next job is always the first, in {@link QueueOrder#BORROWING}, of the teams' next
     * jobs (weighted max-min across teams, job priority and arrival between teams equally placed). Within a team its
     * jobs are tried in queue order ({@link QueueOrder#sorted}).
     */
    @Override
    public Plan schedulePending(SchedulingSnapshot snapshot) {
        // looked up for every waiting job, more than once: a map of the pass's own, not the snapshot's wrapper
        Map<String, Team> teams = new HashMap<>(snapshot.teams());
        List<PendingJob> queue = QueueOrder.sorted(snapshot.pending(), teams);
        PlanningRound round = new PlanningRound(
                snapshot,
                policy(snapshot, null),
                queue.stream().map(PendingJob::spec).toList(),
                reclaim,
                covers);
        Workspace ws = round.workspace();
        NamedLookup<Deque<PendingJob>> borrowers = NamedLookup.inOrder();
        new TeamTurns<>(
                        p -> QueueOrder.claimant(
                                p,
                                teams,
                                ws.ledger().total(p.spec().team()),
                                round.team(p.spec().team()).guaranteedMilli(),
                                Demands.leastMilli(p.spec(), ws.state().nodes())),
                        QueueOrder.CLAIMING,
                        ws::bookings)
                .take(byTeam(queue), p -> {
                    JobSpec job = p.spec();
                    if (round.wouldBeInQuota(job) || !job.preemptible()) {
                        round.decide(job);
                    } else {
                        borrowers
                                .getOrCreate(job.team(), t -> new ArrayDeque<>())
                                .add(p);
                    }
                });
        // each job's position is its team's in the group it would land in, read when it becomes its team's next job
        new TeamTurns<>(
                        p -> QueueOrder.borrower(p, teams, q -> round.sharePosition(q.spec())),
                        QueueOrder.BORROWING,
                        ws::bookings)
                .take(borrowers.handOver(), p -> round.decide(p.spec()));
        return round.plan();
    }

    /** The queue split per team, each team's jobs in queue order. */
    private static Map<String, Deque<PendingJob>> byTeam(List<PendingJob> queue) {
        NamedLookup<Deque<PendingJob>> teams = NamedLookup.inOrder();
        queue.forEach(
                p -> teams.getOrCreate(p.spec().team(), t -> new ArrayDeque<>()).add(p));
        return teams.handOver();
    }

    @Override
    public Plan rebalance(SchedulingSnapshot snapshot, double maxMovedShare) {
        if (!(maxMovedShare >= 0 && maxMovedShare <= 1)) {
            throw new IllegalArgumentException("maxMovedShare must be between 0 and 1, was " + maxMovedShare);
        }
        return new Rebalancer(policy(snapshot, null)).plan(snapshot, maxMovedShare);
    }

    @Override
    public Plan grow(SchedulingSnapshot snapshot) {
        return new ElasticGrowth(policy(snapshot, null)).plan(snapshot);
    }

    /**
     * The policy exactly as the simulator measures it, against the expected shapes fitted to the snapshot's nodes; the
     * jobs of the snapshot and the one being decided are counted first, so the expected shapes include them. Nothing
     * overrides its choice of GPU for a fraction: sending fractions to shared GPUs first (to save reservation pods, which
     * only hold GPUs that fractions use anyway) left more GPUs idle on the fraction-heavy traces
     * (docs/research/packing.md, "Tried and not kept").
     */
    private PlacementPolicy policy(SchedulingSnapshot snapshot, JobSpec decided) {
        if (observed != null) {
            observed.observe(snapshot, decided);
        }
        return PlacementPolicies.create(policyName, seed, workload.forNodes(snapshot.nodes()));
    }
}

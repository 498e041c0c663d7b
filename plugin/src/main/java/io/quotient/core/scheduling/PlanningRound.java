package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.PlacementPolicy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One planning pass over a snapshot: jobs are decided one after another on a shared {@link Workspace}, so each
 * decision sees the capacity the previous ones took or freed. Collects the plan's actions in order (evictions
 * before the placement they make room for).
 */
final class PlanningRound {

    private final Workspace ws;
    private final PlacementPolicy policy;
    /** Per node index, whether its enforcer is ready for shared GPUs. */
    private final boolean[] fractionReady;
    private final Instant now;
    private final PreemptionPlanner preemption;
    private final List<PlanAction> actions = new ArrayList<>();

    /** @param waiting jobs that want capacity besides those placed (for the teams' fair shares) */
    PlanningRound(SchedulingSnapshot snapshot, PlacementPolicy policy, Collection<JobSpec> waiting) {
        this.ws = Workspace.of(snapshot);
        this.policy = policy;
        this.fractionReady = new boolean[ws.state().nodeCount()];
        for (int n = 0; n < fractionReady.length; n++) {
            fractionReady[n] = snapshot.fractionReadyNodes().contains(ws.state().node(n).name());
        }
        this.now = snapshot.now();
        this.preemption = new PreemptionPlanner(ws.ledger(), fairShares(waiting), now);
    }

    /** Places the job (evicting borrowed capacity when it runs within its guarantee) or keeps it pending. */
    boolean decide(JobSpec job) {
        QuotaLedger ledger = ws.ledger();
        Team team = ledger.team(job.team());
        ResourceDemand demand = Demands.of(job);
        PlacementPolicy.NodeFilter filter = filterFor(job);
        long least = Demands.leastMilli(job, ws.state().nodes());
        String never = WaitReasons.neverFits(ws.state(), demand);
        if (never != null) {
            return keepPending(job, never);
        }
        String blocked = quotaBlock(job, team, least);
        if (blocked != null) {
            return keepPending(job, blocked);
        }
        var allocation = policy.place(ws.state(), demand, filter);
        if (allocation.isPresent()) {
            long milli = allocation.get().totalGpuMilli();
            String exact = milli == least ? null : quotaBlock(job, team, milli);
            return exact != null ? keepPending(job, exact)
                    : place(job, allocation.get(), ledger.fitsGuarantee(team.name(), milli));
        }
        if (ledger.fitsGuarantee(team.name(), least)) {
            // only nodes where the job stays within the guarantee (MiB requests weigh differently per node)
            PlacementPolicy.NodeFilter inQuota = (s, n) -> filter.accepts(s, n)
                    && ledger.fitsGuarantee(team.name(), demand.totalMilliOn(s.node(n)));
            var room = preemption.makeRoom(ws, demand, inQuota, policy);
            if (room.isPresent()) {
                List<PlacedJob> victims = room.get().victims();
                victims.forEach(v -> actions.add(new PlanAction.Evict(v.id(), evictionReason(v, victims, job))));
                return place(job, room.get().allocation(), true);
            }
            return keepPending(job, WaitReasons.noRoomInQuota(team, noNode(job, demand, filter),
                    preemption.nextUnprotected(ws)));
        }
        return keepPending(job, WaitReasons.noIdleToBorrow(team, ledger.inQuota(team.name()),
                noNode(job, demand, filter)));
    }

    /** Whether the job would run within its team's guarantee if it were placed now. */
    boolean wouldBeInQuota(JobSpec job) {
        return ws.ledger().fitsGuarantee(job.team(), Demands.leastMilli(job, ws.state().nodes()));
    }

    /** What the team holds beyond its guarantee, in milli. */
    long borrowed(String team) {
        return ws.ledger().total(team) - ws.ledger().inQuota(team);
    }

    Team team(String name) {
        return ws.ledger().team(name);
    }

    Workspace workspace() {
        return ws;
    }

    Plan plan() {
        return new Plan(actions);
    }

    /** Why quota alone keeps the job waiting, or null when quota allows it. */
    private String quotaBlock(JobSpec job, Team team, long milli) {
        QuotaLedger ledger = ws.ledger();
        if (ledger.exceedsMax(team.name(), milli)) {
            return WaitReasons.atMax(team, ledger.total(team.name()), milli);
        }
        if (!job.preemptible() && !ledger.fitsGuarantee(team.name(), milli)) {
            return WaitReasons.nonPreemptibleBeyondGuarantee(team, ledger.inQuota(team.name()), milli);
        }
        return null;
    }

    private PlacementPolicy.NodeFilter filterFor(JobSpec job) {
        if (!Demands.sharesGpu(job)) {
            return PlacementPolicy.NodeFilter.ANY;
        }
        return (s, n) -> fractionReady[n];
    }

    private boolean place(JobSpec job, Allocation allocation, boolean inQuota) {
        PlacedJob placed = ws.placement(job, allocation, inQuota ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA, now);
        ws.add(placed, allocation);
        actions.add(new PlanAction.Place(placed));
        return true;
    }

    private boolean keepPending(JobSpec job, String reason) {
        actions.add(new PlanAction.KeepPending(job.id(), reason));
        return false;
    }

    private String noNode(JobSpec job, ResourceDemand demand, PlacementPolicy.NodeFilter filter) {
        return WaitReasons.noNode(ws.state(), demand, filter, Demands.sharesGpu(job));
    }

    /** Why the victim goes, with what its team held before this preemption. */
    private String evictionReason(PlacedJob victim, List<PlacedJob> victims, JobSpec claimant) {
        QuotaLedger ledger = ws.ledger();
        String team = victim.spec().team();
        long heldBefore = ledger.total(team) + victims.stream().filter(v -> v.spec().team().equals(team))
                .mapToLong(PlacedJob::gpuMilli).sum();
        String holder = team + " held " + WaitReasons.gpus(heldBefore) + " GPUs with a guarantee of "
                + WaitReasons.gpus(ledger.team(team).guaranteedMilli());
        if (team.equals(claimant.team())) {
            return "Preempted by " + claimant.id() + ", which runs within " + team + "'s guarantee; this job ran on"
                    + " borrowed GPUs (" + holder + ") and is re-queued";
        }
        return "Preempted by " + claimant.team() + " reclaiming its guarantee for " + claimant.id()
                + "; this job ran on borrowed GPUs (" + holder + ") and is re-queued";
    }

    private Map<String, Long> fairShares(Collection<JobSpec> waiting) {
        QuotaLedger ledger = ws.ledger();
        Map<String, Long> demand = new HashMap<>();
        ws.placed().forEach(j -> demand.merge(j.spec().team(), j.gpuMilli(), Long::sum));
        waiting.forEach(j -> demand.merge(j.team(), Demands.leastMilli(j, ws.state().nodes()), Long::sum));
        ClusterState state = ws.state();
        return FairShare.of(ledger.teams(), demand, state.totalGpuMilli());
    }
}

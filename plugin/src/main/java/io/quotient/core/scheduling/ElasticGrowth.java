package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.Demands;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.placement.GangDemand;
import io.quotient.core.placement.GangOutcome;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Grows elastic gangs (placed with at least {@code minReplicas} but fewer than {@code replicas}) when capacity has
 * freed: each is placed again as a whole, asking for at least one replica more than it runs, on the nodes free now
 * plus its own; only a placement with more replicas replaces the current one. Growth never takes what the queue
 * needs: it stays within the team's guarantee (capacity the team could reclaim anyway), or borrows only while no job
 * waits; it respects the team's and department's maximum. A gang that borrowed to grow is over quota and is reclaimed
 * whole like any borrower (re-queued, then placed again with at least {@code minReplicas}). Growing restarts the
 * workload, so a gang grows only after its minimum runtime. Higher-priority and older gangs grow first.
 */
final class ElasticGrowth {

    private final PlacementPolicy policy;

    ElasticGrowth(PlacementPolicy policy) {
        this.policy = policy;
    }

    Plan plan(SchedulingSnapshot snapshot) {
        Workspace ws = Workspace.of(snapshot);
        boolean othersWait = !snapshot.pending().isEmpty();
        Set<String> fractionReady = snapshot.fractionReadyNodes();
        List<PlacedJob> shrunk = ws.placed().stream()
                .filter(job -> job.spec().gang().spansNodes()
                        && job.replicas().size() < job.spec().gang().replicas())
                // growing restarts the workload: not before the job's minimum runtime (its checkpoint interval)
                .filter(job -> !snapshot.now().isBefore(job.protectedUntil()))
                .sorted(Comparator.comparingInt((PlacedJob job) -> job.spec().priority())
                        .reversed()
                        .thenComparing(PlacedJob::startedAt))
                .toList();
        List<PlanAction> actions = new ArrayList<>();
        for (PlacedJob job : shrunk) {
            PlacementPolicy.NodeFilter filter = Demands.sharesGpu(job.spec())
                    ? (s, n) -> fractionReady.contains(s.node(n).name())
                    : PlacementPolicy.NodeFilter.ANY;
            grow(ws, job, othersWait, filter, snapshot).ifPresent(actions::add);
        }
        return new Plan(actions);
    }

    /** The bigger placement, booked in the workspace; or nothing changed. */
    private Optional<PlanAction> grow(
            Workspace ws,
            PlacedJob job,
            boolean othersWait,
            PlacementPolicy.NodeFilter filter,
            SchedulingSnapshot snapshot) {
        List<Allocation> held = ws.allocations(job.id());
        ws.remove(job.id());
        int running = job.replicas().size();
        int allowed = allowedReplicas(ws.ledger(), job, othersWait);
        if (allowed > running) {
            GangDemand more = new GangDemand(Demands.of(job.spec()), allowed, running + 1, false);
            if (new GangPlacer(policy).place(ws.state(), more, filter) instanceof GangOutcome.Placed placed) {
                long milli = placed.replicas().stream()
                        .mapToLong(Allocation::totalGpuMilli)
                        .sum();
                boolean inQuota = !job.spec().preemptible()
                        || ws.ledger().fitsGuarantee(job.spec().team(), milli);
                PlacedJob grown = ws.placement(
                        job.spec(),
                        placed.replicas(),
                        inQuota ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA,
                        snapshot.now());
                ws.add(grown, placed.replicas());
                return Optional.of(new PlanAction.Grow(job, grown));
            }
        }
        ws.add(job, held);
        return Optional.empty();
    }

    /**
     * The most replicas the gang may run (its own capacity already released from the ledger): at most what it asked
     * for, within the team's and department's maximum, and within the team's guarantee while other jobs wait.
     */
    private static int allowedReplicas(QuotaLedger ledger, PlacedJob job, boolean othersWait) {
        String team = job.spec().team();
        long perReplica = job.gpuMilli() / job.replicas().size();
        for (int replicas = job.spec().gang().replicas();
                replicas > job.replicas().size();
                replicas--) {
            long milli = perReplica * replicas;
            if (!ledger.exceedsMax(team, milli)
                    && !ledger.exceedsDepartmentMax(team, milli)
                    && (!othersWait || ledger.fitsGuarantee(team, milli))) {
                return replicas;
            }
        }
        return job.replicas().size();
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Department;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.Team;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fair shares a planning round decides by, computed once at its start, and each team's fair-share position as
 * the borrowing order reads it, anew after every placement. Without model groups these are the cluster's
 * ({@link FairShare}); when the quotas declare model groups they are per group ({@link GroupShares}), and a job's
 * position is its team's in the group it would land in.
 */
final class RoundShares {

    private final Workspace ws;
    /**
     * Per team, its decayed past borrowing in milli (empty without usage decay); per group too, by
     * {@link GroupShares#pastKey}, and per department by {@link FairShare#departmentKey}.
     */
    private final Map<String, Double> past;
    /** Per team, its fair share of the cluster: with model groups, the sum of its groups'. */
    private final Map<String, Long> whole;
    /** Per model group, the fair shares there; null without model groups. */
    private final GroupShares groups;

    private RoundShares(Workspace ws, Map<String, Double> past, Map<String, Long> whole, GroupShares groups) {
        this.ws = ws;
        this.past = past;
        this.whole = whole;
        this.groups = groups;
    }

    /** @param waiting jobs that want capacity besides those placed */
    static RoundShares of(Workspace ws, Collection<JobSpec> waiting, Map<String, Double> past) {
        QuotaLedger ledger = ws.ledger();
        if (GroupShares.declared(ledger.teams())) {
            GroupShares groups = GroupShares.of(ledger, waiting, ws.state().nodes(), past);
            return new RoundShares(ws, past, groups.summed(), groups);
        }
        // summed in one mutable cell per team, not a boxed total per job: the queue runs to thousands of jobs
        NamedLookup<long[]> sums = NamedLookup.empty();
        ws.placed().forEach(j -> sums.getOrCreate(j.spec().team(), t -> new long[1])[0] += j.gpuMilli());
        List<NodeSpec> nodes = ws.state().nodes();
        for (JobSpec j : waiting) {
            sums.getOrCreate(j.team(), t -> new long[1])[0] += Demands.leastMilli(j, nodes);
        }
        Map<String, Long> demand = new HashMap<>();
        sums.handOver().forEach((team, sum) -> demand.put(team, sum[0]));
        return new RoundShares(
                ws, past, FairShare.of(ledger.teams(), demand, ws.state().totalGpuMilli(), past), null);
    }

    /** Whether fair shares are per model group. */
    boolean perGroup() {
        return groups != null;
    }

    /** Per team, its fair share of the cluster. */
    Map<String, Long> whole() {
        return whole;
    }

    /** The per-group shares; null without model groups. */
    GroupShares groups() {
        return groups;
    }

    /**
     * The job's team's fair-share position now, as the borrowing order reads it ({@link QueueOrder#borrowing}): in
     * the cluster, or, with model groups, in the group the job would land in ({@link #landingOrder}'s first).
     */
    SharePosition position(JobSpec job) {
        QuotaLedger ledger = ws.ledger();
        if (groups != null) {
            List<ModelGroup> order = landingOrder(job);
            if (!order.isEmpty()) {
                return groups.position(ledger, job.team(), order.get(0));
            }
        }
        Team team = ledger.team(job.team());
        SharePosition own = SharePosition.of(
                ledger.borrowed(job.team()) + past.getOrDefault(job.team(), 0.0), team.overQuotaWeight());
        Department d = team.department();
        if (d == null) {
            return own;
        }
        long departmentBorrowed = Math.max(0, ledger.departmentTotal(d.name()) - d.guaranteedMilli());
        return own.within(SharePosition.of(
                departmentBorrowed + past.getOrDefault(FairShare.departmentKey(d.name()), 0.0), d.overQuotaWeight()));
    }

    /** The model groups a borrowing job tries, in order ({@link GroupShares#landingOrder}). */
    List<ModelGroup> landingOrder(JobSpec job) {
        long least = Demands.leastMilli(job, ws.state().nodes());
        return groups.landingOrder(ws.ledger(), job, idleIn(job), least);
    }

    /** Per group, the idle GPU milli on nodes of its models that the job may use. */
    private Map<ModelGroup, Long> idleIn(JobSpec job) {
        ClusterState state = ws.state();
        List<ModelGroup> all = groups.groups();
        Map<ModelGroup, Long> idle = new HashMap<>();
        for (int n = 0; n < state.nodeCount(); n++) {
            String model = state.node(n).gpuModel();
            if (!job.allowedModels().isEmpty() && !job.allowedModels().contains(model)) {
                continue;
            }
            for (ModelGroup g : all) {
                if (g.contains(model)) {
                    idle.merge(g, state.gpuFreeOnNode(n), Long::sum);
                }
            }
        }
        return idle;
    }
}

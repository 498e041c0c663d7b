package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Gang;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.placement.GangDemand;
import io.quotient.core.placement.GangOutcome;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a {@link PlanningRound} decides a gang that spans nodes: placed all or nothing in one decision, one replica per
 * node on one GPU model, and booked whole; when it does not fit, it takes whole nodes back under the same rules as a
 * single job, for the whole gang ({@link GangReclaim}), all or nothing; otherwise it holds nothing and the reason says
 * how many nodes it lacks. Shares the round's workspace, book and failed searches, so that each decision sees what
 * the previous ones (single jobs or gangs) took or freed.
 */
final class GangDecision {

    private final Workspace ws;
    private final PlacementPolicy policy;
    private final RoundBook book;
    private final FailedSearches failedSearches;
    private final GangReclaim gangReclaim;
    /** The rules as the decision under way sees them (one model group's while a gang tries that group). */
    private final Supplier<ReclaimRules> rules;

    GangDecision(
            Workspace ws,
            PlacementPolicy policy,
            RoundBook book,
            FailedSearches failedSearches,
            GangReclaim gangReclaim,
            Supplier<ReclaimRules> rules) {
        this.ws = ws;
        this.policy = policy;
        this.book = book;
        this.failedSearches = failedSearches;
        this.gangReclaim = gangReclaim;
        this.rules = rules;
    }

    /**
     * Places the gang or keeps it pending. A gang that only its department's maximum holds back
     * ({@code departmentFull}, the reason) is not placed on idle nodes: the rules must free inside the department what
     * it would bring it beyond.
     */
    boolean decide(
            JobSpec job,
            Team team,
            ResourceDemand perReplica,
            PlacementPolicy.NodeFilter filter,
            String departmentFull) {
        Gang gang = job.gang();
        GangDemand demand = demandOf(job, perReplica);
        GangOutcome outcome = departmentFull != null ? null : new GangPlacer(policy).place(ws.state(), demand, filter);
        if (outcome instanceof GangOutcome.Placed placed) {
            return book(job, team, placed.replicas());
        }
        Optional<List<Allocation>> reclaimed = reclaim(job, team, demand, filter);
        if (reclaimed.isPresent()) {
            return book(job, team, reclaimed.get());
        }
        return book.keepPending(
                job,
                departmentFull != null
                        ? departmentFull
                        : "gang of " + gang.replicas() + " replicas: "
                                + ((GangOutcome.Waiting) outcome).shortfall().describe());
    }

    /**
     * The gang takes the place of its team's own lower-priority jobs for all its replicas at once, under the rights
     * given ({@link PlanningRound}'s displacement at a maximum); records nothing when no plan works, except a reason
     * when the booking at its exact size is refused.
     */
    boolean displacesOwn(
            JobSpec job, ResourceDemand perReplica, PlacementPolicy.NodeFilter filter, Optional<ReclaimRights> own) {
        Team team = ws.ledger().team(job.team());
        return own.flatMap(r -> reclaim(job, demandOf(job, perReplica), filter, r))
                .map(replicas -> book(job, team, replicas))
                .orElse(false);
    }

    /** Books the gang's replicas whole, unless quota at their exact size holds it back. */
    private boolean book(JobSpec job, Team team, List<Allocation> replicas) {
        String exact = exactBlock(job, team, replicas);
        return exact != null ? book.keepPending(job, exact) : book.book(job, replicas);
    }

    private String exactBlock(JobSpec job, Team team, List<Allocation> replicas) {
        return QuotaBlocks.of(
                ws.ledger(),
                job,
                team,
                replicas.stream().mapToLong(Allocation::totalGpuMilli).sum());
    }

    private static GangDemand demandOf(JobSpec job, ResourceDemand perReplica) {
        return new GangDemand(perReplica, job.gang().replicas(), job.gang().minReplicas(), false);
    }

    /**
     * Room for a gang under the first rule that grants it, tried in the order single jobs try them ({@link ReclaimLadder})
     * and each for the whole gang: the evictions and moves that free its nodes are recorded and the replicas
     * returned (to be booked); empty when no rule gives the gang a pool of nodes (then nothing was evicted or moved).
     */
    private Optional<List<Allocation>> reclaim(
            JobSpec job, Team team, GangDemand gang, PlacementPolicy.NodeFilter filter) {
        long perReplica = Demands.leastMilli(job, ws.state().nodes()) / gang.minReplicas();
        // the whole gang first; an elastic gang then for fewer replicas, down to its minimum, as a rule grants them
        // (it grows later, ElasticGrowth): a team within its guarantee for the minimum is not left below it
        for (int count = gang.replicas(); count >= gang.minReplicas(); count--) {
            long milli = perReplica * count;
            if (QuotaBlocks.of(ws.ledger(), job, team, milli) != null
                    && !QuotaBlocks.onlyDepartmentAtMax(ws.ledger(), job, team, milli)) {
                continue;
            }
            GangDemand sized = gang.withReplicas(count);
            for (ReclaimStep step : ReclaimLadder.STEPS) {
                Optional<List<Allocation>> replicas = step.rights(rules.get(), job, milli, ws)
                        .flatMap(granted -> reclaim(job, sized, filter, granted));
                if (replicas.isPresent()) {
                    return replicas;
                }
            }
        }
        return Optional.empty();
    }

    private Optional<List<Allocation>> reclaim(
            JobSpec job, GangDemand gang, PlacementPolicy.NodeFilter filter, ReclaimRights rights) {
        String key = FailedSearches.key(
                "gang", rights.rule().name(), job.team(), job.priority(), job.preemptible(), gang.replicas());
        // a room the booking would refuse (a maximum still exceeded) is none: the next rule may give one
        Team team = ws.ledger().team(job.team());
        var room = failedSearches.unlessFailed(
                key,
                gang.perReplica(),
                () -> gangReclaim.makeRoom(gang, filter, rights, replicas -> exactBlock(job, team, replicas) == null));
        if (room.isEmpty()) {
            return Optional.empty();
        }
        book.recordRoom(job, room.get().moves(), room.get().victims(), rights.rule(), rules.get());
        return Optional.of(room.get().replicas());
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.Gang;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.placement.GangDemand;
import io.quotient.core.placement.GangOutcome;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One planning pass over a snapshot: jobs are decided one after another on a shared {@link Workspace}, so each
 * decision sees the capacity the previous ones took or freed. Collects the plan's actions in order (moves and
 * evictions before the placement they make room for).
 */
final class PlanningRound {

    private final Workspace ws;
    private final PlacementPolicy policy;
    /** Per node index, whether its enforcer is ready for shared GPUs. */
    private final boolean[] fractionReady;

    private final Instant now;
    /** The rules as the decision under way sees them (one model group's while a job tries that group). */
    private ReclaimRules rules;

    private final ReclaimRules wholeRules;
    private final ReclaimSettings settings;
    /** How jobs of teams with GPU model groups are decided. */
    private final GroupDecision groups;
    /** The job as asked while a restricted copy of it is decided (placements book the job as asked). */
    private JobSpec asked;

    private final PreemptionPlanner preemption;
    private final GangReclaim gangReclaim;
    private final List<PlanAction> actions = new ArrayList<>();
    /** Jobs this round places: a later decision of the same round never evicts them (see {@link ReclaimSearch}). */
    private final Set<JobId> placedThisRound = new HashSet<>();

    private final FailedSearches failedSearches = new FailedSearches();
    private final CapacityReasons capacityReasons;
    private final RepeatedRefusals refusals = new RepeatedRefusals();
    /** Per team, its decayed past borrowing in milli (empty without usage decay). */
    private final Map<String, Double> past;

    /** @param waiting jobs that want capacity besides those placed (for the teams' fair shares) */
    PlanningRound(
            SchedulingSnapshot snapshot,
            PlacementPolicy policy,
            Collection<JobSpec> waiting,
            ReclaimSettings settings) {
        this.ws = Workspace.of(snapshot);
        this.policy = policy;
        this.fractionReady = new boolean[ws.state().nodeCount()];
        for (int n = 0; n < fractionReady.length; n++) {
            fractionReady[n] =
                    snapshot.fractionReadyNodes().contains(ws.state().node(n).name());
        }
        this.now = snapshot.now();
        this.past = snapshot.pastBorrowedMilli();
        this.rules = new ReclaimRules(ws.ledger(), fairShares(waiting), settings);
        this.wholeRules = rules;
        this.settings = settings;
        Set<String> clusterModels = new HashSet<>();
        snapshot.nodes().stream().filter(n -> n.gpuCount() > 0).forEach(n -> clusterModels.add(n.gpuModel()));
        this.groups = new GroupDecision(this::decideIn, ws, actions, clusterModels);
        ReclaimSearch search = new ReclaimSearch(
                ws,
                now,
                settings.maxMovesPerDecision(),
                j -> filterFor(j.spec()),
                placedThisRound,
                new VictimStanding(ws.ledger(), rules::fairShare, settings.fairShareMinGainMilli()));
        this.preemption = new PreemptionPlanner(search, now);
        this.gangReclaim = new GangReclaim(
                ws, search, new GangPlacer(policy), now, settings.maxMovesPerDecision(), j -> filterFor(j.spec()));
        this.capacityReasons = new CapacityReasons(ws.state());
    }

    /** Places the job (taking capacity back where a rule allows it) or keeps it pending with the rule that holds it. */
    boolean decide(JobSpec job) {
        long changes = ws.state().changes();
        String known = refusals.reason(job, changes);
        if (known != null) {
            return keepPending(job, known);
        }
        if (GroupTargets.applies(team(job.team())) ? groups.decide(job) : decideAfresh(job)) {
            return true;
        }
        if (ws.state().changes() == changes && actions.get(actions.size() - 1) instanceof PlanAction.KeepPending k) {
            refusals.refused(job, k.reason(), changes);
        }
        return false;
    }

    /**
     * Decides {@code restricted} (a copy of {@code job}) with the ledger shown as {@code view} sees it, booking the job
     * as asked ({@link GroupDecision.Round}).
     */
    private boolean decideIn(JobSpec job, QuotaLedger view, JobSpec restricted, boolean idleOnly) {
        // fair share is the whole cluster's: inside a group's view it is no rule (an empty map grants none)
        rules = view == ws.ledger() ? wholeRules : new ReclaimRules(view, Map.of(), settings);
        ws.view(view);
        asked = job;
        try {
            return idleOnly ? placeOnIdle(restricted) : decideAfresh(restricted);
        } finally {
            ws.wholeView();
            rules = wholeRules;
            asked = null;
        }
    }

    /** Places a single-node job on idle GPUs only, if quota allows it there; records nothing otherwise. */
    private boolean placeOnIdle(JobSpec job) {
        Team team = ws.ledger().team(job.team());
        long least = Demands.leastMilli(job, ws.state().nodes());
        if (job.gang().spansNodes() || quotaBlock(job, team, least) != null) {
            return false;
        }
        var allocation = policy.place(ws.state(), Demands.of(job), filterFor(job));
        if (allocation.isEmpty()) {
            return false;
        }
        long milli = allocation.get().totalGpuMilli();
        return (milli == least || quotaBlock(job, team, milli) == null) && place(job, allocation.get());
    }

    private boolean decideAfresh(JobSpec job) {
        QuotaLedger ledger = ws.ledger();
        Team team = ledger.team(job.team());
        ResourceDemand demand = Demands.of(job);
        PlacementPolicy.NodeFilter filter = filterFor(job);
        long least = Demands.leastMilli(job, ws.state().nodes());
        String never = capacityReasons.neverFits(demand, job.gang().minReplicas());
        if (never != null) {
            return keepPending(job, never);
        }
        String blocked = quotaBlock(job, team, least);
        boolean departmentFull = blocked != null && onlyDepartmentAtMax(job, team, least);
        if (blocked != null && !departmentFull) {
            long overMax = Math.max(ledger.total(team.name()) + least - team.maxMilli(), 0);
            // at its maximum a job may still take the place of its team's lower-priority jobs (a gang for all its
            // replicas at once)
            Optional<ReclaimRights> own =
                    ledger.exceedsMax(team.name(), least) && !ledger.exceedsDepartmentMax(team.name(), least)
                            ? rules.priority(job, overMax)
                            : Optional.empty();
            boolean placed = job.gang().spansNodes()
                    ? own.flatMap(r -> reclaimForGang(job, gangDemand(job, demand), filter, r))
                            .map(replicas -> book(job, team, replicas))
                            .orElse(false)
                    : tryRule(job, demand, filter, own);
            return placed || keepPending(job, blocked);
        }
        if (job.gang().spansNodes()) {
            return decideGang(job, team, demand, filter, blocked);
        }
        if (departmentFull) {
            // the rules free inside the department what keeps it within its maximum (DepartmentLimits), e.g. a sibling
            // team's borrowed job for a team within its guarantee; a placement on idle GPUs alone is not allowed
            return reclaim(job, demand, filter, least) || keepPending(job, blocked);
        }
        var allocation = policy.place(ws.state(), demand, filter);
        if (allocation.isPresent()) {
            long milli = allocation.get().totalGpuMilli();
            String exact = milli == least ? null : quotaBlock(job, team, milli);
            return exact != null ? keepPending(job, exact) : place(job, allocation.get());
        }
        if (reclaim(job, demand, filter, least)) {
            return true;
        }
        String capacity = noNode(job, demand, filter);
        if (rules.guarantee(job, least).isPresent()) {
            return keepPending(job, WaitReasons.noRoomInQuota(team, capacity, preemption.nextUnprotected(ws)));
        }
        return keepPending(
                job,
                WaitReasons.beyondGuarantee(
                        team, ledger.total(team.name()), least, rules.fairShare(team.name()), capacity));
    }

    /**
     * Room under the first step of the {@link ReclaimLadder} that grants a right under which a plan works.
     *
     * @param least the GPU milli the job takes at least
     */
    private boolean reclaim(JobSpec job, ResourceDemand demand, PlacementPolicy.NodeFilter filter, long least) {
        for (ReclaimStep step : ReclaimLadder.STEPS) {
            if (tryRule(job, demand, filter, step.rights(rules, job, least, ws))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether quota holds a job back only because its department is at its maximum (the team itself is within
     * its own, and a non-preemptible job within its guarantee): then the rules may free inside the department.
     */
    private boolean onlyDepartmentAtMax(JobSpec job, Team team, long milli) {
        QuotaLedger ledger = ws.ledger();
        return !ledger.exceedsMax(team.name(), milli)
                && ledger.exceedsDepartmentMax(team.name(), milli)
                && (job.preemptible() || ledger.fitsGuaranteeNonPreemptible(team.name(), milli));
    }

    /**
     * A gang is placed all or nothing in one decision, one replica per node on one GPU model, and booked whole; when
     * it does not fit, it takes whole nodes back under the same rules as a single job, for the whole gang
     * ({@link GangReclaim}, {@link #reclaimForGang}), all or nothing; otherwise it holds nothing and the reason says how
     * many nodes it lacks. A gang that only its department's maximum holds back ({@code departmentFull}, the reason)
     * is not placed on idle nodes: the rules must free inside the department what it would bring it beyond.
     */
    private boolean decideGang(
            JobSpec job,
            Team team,
            ResourceDemand perReplica,
            PlacementPolicy.NodeFilter filter,
            String departmentFull) {
        Gang gang = job.gang();
        GangDemand demand = gangDemand(job, perReplica);
        GangOutcome outcome = departmentFull != null ? null : new GangPlacer(policy).place(ws.state(), demand, filter);
        List<Allocation> replicas;
        if (!(outcome instanceof GangOutcome.Placed placedReplicas)) {
            Optional<List<Allocation>> reclaimed = reclaimForGang(job, team, demand, filter);
            if (reclaimed.isEmpty()) {
                return keepPending(
                        job,
                        departmentFull != null
                                ? departmentFull
                                : "gang of " + gang.replicas() + " replicas: "
                                        + ((GangOutcome.Waiting) outcome)
                                                .shortfall()
                                                .describe());
            }
            replicas = reclaimed.get();
        } else {
            replicas = placedReplicas.replicas();
        }
        return book(job, team, replicas);
    }

    private static GangDemand gangDemand(JobSpec job, ResourceDemand perReplica) {
        return new GangDemand(perReplica, job.gang().replicas(), job.gang().minReplicas(), false);
    }

    /** Books the gang's replicas whole, unless quota at their exact size holds it back. */
    private boolean book(JobSpec job, Team team, List<Allocation> replicas) {
        long milli = replicas.stream().mapToLong(Allocation::totalGpuMilli).sum();
        String exact = quotaBlock(job, team, milli);
        if (exact != null) {
            return keepPending(job, exact);
        }
        boolean inQuota = !job.preemptible() || ws.ledger().fitsGuarantee(job.team(), milli);
        PlacedJob placed =
                ws.placement(asAsked(job), replicas, inQuota ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA, now);
        ws.add(placed, replicas);
        actions.add(new PlanAction.Place(placed));
        placedThisRound.add(placed.id());
        return true;
    }

    /**
     * Room for a gang under the first rule that grants it, tried in the order single jobs try them ({@link ReclaimLadder})
     * and each for the whole gang: the evictions and moves that free its nodes are recorded and the replicas
     * returned (to be booked); empty when no rule gives the gang a pool of nodes (then nothing was evicted or moved).
     */
    private Optional<List<Allocation>> reclaimForGang(
            JobSpec job, Team team, GangDemand gang, PlacementPolicy.NodeFilter filter) {
        long whole = Demands.leastMilli(job, ws.state().nodes()) / gang.minReplicas() * gang.replicas();
        if (quotaBlock(job, team, whole) != null && !onlyDepartmentAtMax(job, team, whole)) {
            return Optional.empty();
        }
        for (ReclaimStep step : ReclaimLadder.STEPS) {
            Optional<List<Allocation>> replicas =
                    step.rights(rules, job, whole, ws).flatMap(granted -> reclaimForGang(job, gang, filter, granted));
            if (replicas.isPresent()) {
                return replicas;
            }
        }
        return Optional.empty();
    }

    private Optional<List<Allocation>> reclaimForGang(
            JobSpec job, GangDemand gang, PlacementPolicy.NodeFilter filter, ReclaimRights rights) {
        String key = "gang|" + rights.rule().name() + '|' + job.team() + '|' + job.priority() + '|' + job.preemptible()
                + '|' + gang.replicas();
        if (failedSearches.covers(key, gang.perReplica())) {
            return Optional.empty();
        }
        Optional<GangReclaim.Outcome> room = gangReclaim.makeRoom(gang, filter, rights);
        if (room.isEmpty()) {
            failedSearches.add(key, gang.perReplica());
            return Optional.empty();
        }
        failedSearches.clear();
        recordRoom(job, room.get().moves(), room.get().victims(), rights.rule());
        return Optional.of(room.get().replicas());
    }

    /** Whether the job would run within its team's guarantee if it were placed now. */
    boolean wouldBeInQuota(JobSpec job) {
        return groups.wouldBeInQuota(job);
    }

    /** The team's fair-share position now, as the borrowing order reads it ({@link QueueOrder#borrowing}). */
    SharePosition sharePosition(String team) {
        return SharePosition.of(
                ws.ledger().borrowed(team) + past.getOrDefault(team, 0.0),
                ws.ledger().team(team).overQuotaWeight());
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

    /**
     * Makes room under the rights, if given: on nodes where the job's exact size keeps the rule's limit, with the
     * cheapest evictions and moves. Records the actions and the placement when it works.
     */
    private boolean tryRule(
            JobSpec job, ResourceDemand demand, PlacementPolicy.NodeFilter filter, Optional<ReclaimRights> rights) {
        if (rights.isEmpty()) {
            return false;
        }
        ReclaimRights r = rights.get();
        String key = r.rule().name()
                + '|'
                + job.team()
                + '|'
                + job.priority()
                + '|'
                + job.preemptible()
                + '|'
                + Demands.sharesGpu(job);
        if (failedSearches.covers(key, demand)) {
            return false;
        }
        PlacementPolicy.NodeFilter withinRule = (s, n) -> filter.accepts(s, n)
                && !ws.ledger().exceedsMax(job.team(), demand.totalMilliOn(s.node(n)) - r.ownMustFree())
                && !ws.ledger()
                        .exceedsDepartmentMax(
                                job.team(),
                                demand.totalMilliOn(s.node(n))
                                        - Math.max(
                                                r.ownMustFree(), r.departments().ownDepartmentOverMax()))
                && r.rule().keepsLimit(ws.ledger(), rules, job, r, demand.totalMilliOn(s.node(n)));
        var room = preemption.makeRoom(ws, demand, withinRule, policy, r);
        if (room.isEmpty()) {
            failedSearches.add(key, demand);
            return false;
        }
        failedSearches.clear();
        recordRoom(job, room.get().moves(), room.get().victims(), r.rule());
        return place(job, room.get().allocation());
    }

    /** Records the moves and evictions that made room for the job, before its placement, with each victim's reason. */
    private void recordRoom(JobSpec job, List<PlanAction.Move> moves, List<PlacedJob> victims, ReclaimStep rule) {
        actions.addAll(moves);
        // a moved job is placed anew by this plan: a later decision of the same plan neither evicts nor moves it again
        moves.forEach(m -> placedThisRound.add(m.job()));
        victims.forEach(v -> actions.add(
                new PlanAction.Evict(v.id(), EvictionReasons.of(ws.ledger(), rules, v, victims, job, rule))));
    }

    /** Why quota alone keeps the job waiting, or null when quota allows it. */
    private String quotaBlock(JobSpec job, Team team, long milli) {
        QuotaLedger ledger = ws.ledger();
        if (ledger.exceedsMax(team.name(), milli)) {
            return WaitReasons.atMax(team, ledger.total(team.name()), milli);
        }
        if (ledger.exceedsDepartmentMax(team.name(), milli)) {
            return WaitReasons.departmentAtMax(
                    team, ledger.departmentTotal(team.department().name()), milli);
        }
        if (!job.preemptible() && !ledger.fitsGuaranteeNonPreemptible(team.name(), milli)) {
            return WaitReasons.nonPreemptibleBeyondGuarantee(team, ledger.nonPreemptible(team.name()), milli);
        }
        return null;
    }

    private PlacementPolicy.NodeFilter filterFor(JobSpec job) {
        if (!Demands.sharesGpu(job)) {
            return PlacementPolicy.NodeFilter.ANY;
        }
        return (s, n) -> fractionReady[n];
    }

    private boolean place(JobSpec job, Allocation allocation) {
        boolean inQuota = !job.preemptible() || ws.ledger().fitsGuarantee(job.team(), allocation.totalGpuMilli());
        PlacedJob placed =
                ws.placement(asAsked(job), allocation, inQuota ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA, now);
        ws.add(placed, allocation);
        actions.add(new PlanAction.Place(placed));
        placedThisRound.add(placed.id());
        return true;
    }

    /** The job as its owner asked it (not the copy restricted to a model group's models). */
    private JobSpec asAsked(JobSpec job) {
        return asked != null ? asked : job;
    }

    private boolean keepPending(JobSpec job, String reason) {
        actions.add(new PlanAction.KeepPending(job.id(), reason));
        return false;
    }

    private String noNode(JobSpec job, ResourceDemand demand, PlacementPolicy.NodeFilter filter) {
        return capacityReasons.noNode(demand, filter, Demands.sharesGpu(job));
    }

    private Map<String, Long> fairShares(Collection<JobSpec> waiting) {
        Map<String, Long> demand = new HashMap<>();
        ws.placed().forEach(j -> demand.merge(j.spec().team(), j.gpuMilli(), Long::sum));
        waiting.forEach(
                j -> demand.merge(j.team(), Demands.leastMilli(j, ws.state().nodes()), Long::sum));
        return FairShare.of(ws.ledger().teams(), demand, ws.state().totalGpuMilli(), past);
    }
}

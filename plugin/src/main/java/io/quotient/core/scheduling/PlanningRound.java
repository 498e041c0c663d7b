package io.quotient.core.scheduling;

import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.placement.GangPlacer;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One planning pass over a snapshot: jobs are decided one after another on a shared {@link Workspace}, so each
 * decision sees the capacity the previous ones took or freed. Collects the plan's actions in order (moves and
 * evictions before the placement they make room for).
 */
final class PlanningRound {

    private final Workspace ws;
    private final PlacementPolicy policy;
    private final FractionReadyNodes fractionReady;

    private final Instant now;
    /** The rules as the decision under way sees them (one model group's while a job tries that group). */
    private ReclaimRules rules;

    private final ReclaimRules wholeRules;
    private final ReclaimSettings settings;
    /** How jobs are decided when quotas name GPU model groups. */
    private final GroupDecision groups;

    private final RoundShares shares;
    /**
     * The books and fair shares a victim's standing is read from ({@link VictimStanding}): a group's while a job
     * borrows there.
     */
    private QuotaLedger standingLedger;

    private Map<String, Long> standingShares;

    private final PreemptionPlanner preemption;
    private final GangDecision gangs;
    private final RoundBook book;

    private final FailedSearches failedSearches = new FailedSearches();
    private final CapacityReasons capacityReasons;
    private final RepeatedRefusals refusals = new RepeatedRefusals();

    /**
     * @param waiting jobs that want capacity besides those placed (for the teams' fair shares)
     * @param covers  the teams' quota covers kept between rounds ({@link QuotaCovers})
     */
    PlanningRound(
            SchedulingSnapshot snapshot,
            PlacementPolicy policy,
            Collection<JobSpec> waiting,
            ReclaimSettings settings,
            QuotaCovers covers) {
        this.ws = Workspace.of(snapshot, covers);
        this.policy = policy;
        this.fractionReady = FractionReadyNodes.of(snapshot, ws.state());
        this.now = snapshot.now();
        this.shares = RoundShares.of(ws, waiting, snapshot.pastBorrowedMilli());
        // with model groups fair share is reclaimed only in a group's fair-share view, never across the cluster
        this.rules = new ReclaimRules(ws.ledger(), shares.perGroup() ? Map.of() : shares.whole(), settings);
        this.wholeRules = rules;
        this.settings = settings;
        this.standingLedger = ws.ledger();
        this.standingShares = shares.whole();
        this.book = new RoundBook(ws, now);
        Set<String> clusterModels = new HashSet<>();
        snapshot.nodes().stream().filter(n -> n.gpuCount() > 0).forEach(n -> clusterModels.add(n.gpuModel()));
        GroupShift shifts = new GroupShift(
                ws,
                clusterModels,
                book.placedThisRound(),
                j -> policy.place(ws.state(), Demands.of(j), filterFor(j)),
                settings.maxMovesPerDecision(),
                now);
        this.groups = new GroupDecision(this::decideIn, this::displacesOwnIn, ws, book, clusterModels, shares, shifts);
        ReclaimSearch search = new ReclaimSearch(
                ws,
                now,
                settings.maxMovesPerDecision(),
                j -> filterFor(j.spec()),
                book.placedThisRound(),
                new VictimStanding(
                        () -> standingLedger,
                        t -> standingShares.getOrDefault(t, 0L),
                        settings.fairShareMinGainMilli()));
        this.preemption = new PreemptionPlanner(search, now);
        GangReclaim gangReclaim = new GangReclaim(
                ws, search, new GangPlacer(policy), now, settings.maxMovesPerDecision(), j -> filterFor(j.spec()));
        this.gangs = new GangDecision(ws, policy, book, failedSearches, gangReclaim, () -> rules);
        this.capacityReasons = new CapacityReasons(ws.state());
    }

    /** Places the job (taking capacity back where a rule allows it) or keeps it pending with the rule that holds it. */
    boolean decide(JobSpec job) {
        long changes = ws.state().changes();
        String known = refusals.reason(job, changes);
        if (known != null) {
            return book.keepPending(job, known);
        }
        boolean grouped = shares.perGroup() || GroupTargets.applies(team(job.team()));
        if (grouped ? groups.decide(job) : decideAfresh(job)) {
            return true;
        }
        PlanAction.KeepPending k = book.lastPending();
        if (ws.state().changes() == changes && k != null) {
            refusals.refused(job, k.reason(), changes);
        }
        return false;
    }

    /**
     * Decides {@code restricted} (a copy of {@code job}) with the ledger shown as {@code view} sees it, booking the job
     * as asked ({@link GroupDecision.Round}).
     */
    private boolean decideIn(
            JobSpec job, QuotaLedger view, Map<String, Long> fairShares, JobSpec restricted, boolean idleOnly) {
        return inView(job, view, fairShares, () -> idleOnly ? placeOnIdle(restricted) : decideAfresh(restricted));
    }

    /**
     * Places {@code restricted} (a copy of {@code job}) in the place of its team's own lower-priority jobs with the
     * ledger shown as {@code view} sees it ({@link GroupDecision.OwnRound}), as {@link #displacesOwn} does.
     */
    private boolean displacesOwnIn(JobSpec job, QuotaLedger view, JobSpec restricted) {
        return inView(job, view, Map.of(), () -> displacesOwn(restricted));
    }

    /** The decision given, with the ledger and the rules shown as {@code view} sees them while it runs. */
    private boolean inView(JobSpec job, QuotaLedger view, Map<String, Long> fairShares, BooleanSupplier decision) {
        rules = view == ws.ledger() ? wholeRules : new ReclaimRules(view, fairShares, settings);
        boolean sharedView = !fairShares.isEmpty();
        if (sharedView) {
            standingLedger = view;
            standingShares = fairShares;
        }
        ws.view(view);
        book.asking(job);
        try {
            return decision.getAsBoolean();
        } finally {
            ws.wholeView();
            rules = wholeRules;
            standingLedger = ws.ledger();
            standingShares = shares.whole();
            book.asking(null);
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
        return (milli == least || quotaBlock(job, team, milli) == null) && book.place(job, allocation.get());
    }

    private boolean decideAfresh(JobSpec job) {
        QuotaLedger ledger = ws.ledger();
        Team team = ledger.team(job.team());
        ResourceDemand demand = Demands.of(job);
        PlacementPolicy.NodeFilter filter = filterFor(job);
        long least = Demands.leastMilli(job, ws.state().nodes());
        String never = capacityReasons.neverFits(demand, job.gang().minReplicas());
        if (never != null) {
            return book.keepPending(job, never);
        }
        String blocked = quotaBlock(job, team, least);
        boolean departmentFull = blocked != null && onlyDepartmentAtMax(job, team, least);
        if (blocked != null && !departmentFull) {
            // at its maximum (and its department's too, perhaps) a job may still take its team's lower-priority jobs'
            // place; before, a job at both maxima waited, though freeing its own jobs brings both within
            boolean placed = ledger.exceedsMax(team.name(), least) && displacesOwn(job);
            return placed || book.keepPending(job, blocked);
        }
        if (job.gang().spansNodes()) {
            return gangs.decide(job, team, demand, filter, blocked);
        }
        if (departmentFull) {
            // the rules free inside the department what keeps it within its maximum (DepartmentLimits), e.g. a sibling
            // team's borrowed job for a team within its guarantee; a placement on idle GPUs alone is not allowed
            return reclaim(job, demand, filter, least) || book.keepPending(job, blocked);
        }
        var allocation = policy.place(ws.state(), demand, filter);
        if (allocation.isPresent()) {
            long milli = allocation.get().totalGpuMilli();
            String exact = milli == least ? null : quotaBlock(job, team, milli);
            return exact != null ? book.keepPending(job, exact) : book.place(job, allocation.get());
        }
        if (reclaim(job, demand, filter, least)) {
            return true;
        }
        String capacity = capacityReasons.noNode(demand, filter, Demands.sharesGpu(job));
        if (rules.guarantee(job, least).isPresent()) {
            return book.keepPending(job, WaitReasons.noRoomInQuota(team, capacity, preemption.nextUnprotected(ws)));
        }
        long fair = rules.fairShare(team.name());
        return book.keepPending(
                job,
                ledger.shared()
                        ? WaitReasons.borrowingInGroup(team, ledger.total(team.name()), least, fair, capacity)
                        : WaitReasons.beyondGuarantee(team, ledger.total(team.name()), least, fair, capacity));
    }

    /**
     * The job takes the place of its team's lower-priority jobs (a gang for all its replicas at once), freeing first
     * what it would bring its team or department beyond a maximum the ledger shows ({@link QuotaLedger#beyondMaxima}):
     * how a job at a maximum is decided, its team's or department's, overall or (in {@link QuotaLedger#cappedIn}) for
     * a model group. Only the team's own jobs are taken ({@link ReclaimRules#priority}); records nothing when no plan
     * works, except a reason when a gang's booking at its exact size is refused.
     */
    private boolean displacesOwn(JobSpec job) {
        Team team = team(job.team());
        ResourceDemand demand = Demands.of(job);
        PlacementPolicy.NodeFilter filter = filterFor(job);
        long least = Demands.leastMilli(job, ws.state().nodes());
        Optional<ReclaimRights> own = rules.priority(job, ws.ledger().beyondMaxima(team.name(), least));
        return job.gang().spansNodes()
                ? gangs.displacesOwn(job, demand, filter, own)
                : tryRule(job, demand, filter, own);
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

    /** Whether the job would run within its team's guarantee if it were placed now. */
    boolean wouldBeInQuota(JobSpec job) {
        return groups.wouldBeInQuota(job);
    }

    /** The job's team's fair-share position now, as the borrowing order reads it ({@link QueueOrder#borrowing}). */
    SharePosition sharePosition(JobSpec job) {
        return shares.position(job);
    }

    Team team(String name) {
        return ws.ledger().team(name);
    }

    Workspace workspace() {
        return ws;
    }

    Plan plan() {
        return book.plan();
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
        String key = FailedSearches.key(
                r.rule().name(), job.team(), job.priority(), job.preemptible(), Demands.sharesGpu(job));
        PlacementPolicy.NodeFilter withinRule = r.keepingLimits(ws.ledger(), rules, job, demand, filter);
        var room =
                failedSearches.unlessFailed(key, demand, () -> preemption.makeRoom(ws, demand, withinRule, policy, r));
        if (room.isEmpty()) {
            return false;
        }
        book.recordRoom(job, room.get().moves(), room.get().victims(), r.rule(), rules);
        return book.place(job, room.get().allocation());
    }

    /** Why quota alone keeps the job waiting, or null when quota allows it. */
    private String quotaBlock(JobSpec job, Team team, long milli) {
        return QuotaBlocks.of(ws.ledger(), job, team, milli);
    }

    /** Whether only the department's maximum holds the job back ({@link QuotaBlocks#onlyDepartmentAtMax}). */
    private boolean onlyDepartmentAtMax(JobSpec job, Team team, long milli) {
        return QuotaBlocks.onlyDepartmentAtMax(ws.ledger(), job, team, milli);
    }

    private PlacementPolicy.NodeFilter filterFor(JobSpec job) {
        return fractionReady.filterFor(job);
    }
}

package io.quotient.core.scheduling;

import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a job of a team with GPU model groups is decided: only on models the group maxima allow; when the team's
 * guarantee is split, first on idle GPUs of a group with room in its guarantee, then by reclaim in such a group (each
 * in the team's declared order, under the rules as the group sees them: {@link QuotaLedger#inGroup}), and only then
 * borrowing anywhere the maxima allow, with the team guaranteed nothing ({@link QuotaLedger#borrowing}); in between,
 * a group it has filled gets room by moving the team's own jobs out of it ({@link GroupShift}), unless the job can
 * borrow idle GPUs of that group as it is. When fair shares are per group ({@link GroupShares}), every team's
 * borrowing job borrows in one group at a time, in the group's fair-share view ({@link #borrow}). The reason a job
 * keeps waiting names the groups ("waits for H100-80GB: group guarantee 4, holds 4; to borrow: ...").
 */
final class GroupDecision {

    /** The planning round's decision of one job as one view of the ledger sees it. */
    @FunctionalInterface
    interface Round {

        /**
         * Decides {@code restricted} (a copy of {@code job}) with the ledger shown as {@code view} sees it and the fair
         * shares given (empty: none; ignored for the whole ledger, which has the round's), booking the job as asked; a
         * failure records one {@link PlanAction.KeepPending} with its reason, except with {@code idleOnly} (on idle
         * GPUs only), which records nothing when it fails.
         */
        boolean decideIn(
                JobSpec job, QuotaLedger view, Map<String, Long> fairShares, JobSpec restricted, boolean idleOnly);
    }

    /** The planning round's displacement of a team's own lower-priority jobs in one view of the ledger. */
    @FunctionalInterface
    interface OwnRound {

        /**
         * Places {@code restricted} (a copy of {@code job}) in the place of its team's own lower-priority jobs, with
         * the ledger shown as {@code view} sees it, freeing first what it would bring the team or its department
         * beyond a maximum of the view; records nothing when it fails (but a gang's refused booking's reason).
         */
        boolean displacesOwnIn(JobSpec job, QuotaLedger view, JobSpec restricted);
    }

    private final Round round;
    private final OwnRound own;
    private final Workspace ws;
    /** The round's plan so far: a failed try in a group takes its reason back, the final one names the groups. */
    private final List<PlanAction> actions;

    private final Set<String> clusterModels;
    private final RoundShares shares;
    private final GroupShift shifts;
    /** Jobs the plan placed or moved (live): a shift's moves join them while its job is decided. */
    private final Set<JobId> placedThisRound;
    /** What {@link #wouldBeInQuota} last answered, in which view and at which booking count. */
    private final LastAlike<Boolean> lastInQuota = new LastAlike<>();

    /**
     * @param clusterModels the GPU models of the cluster's nodes (where an unpinned job may go)
     * @param shares        the round's fair shares: per group, a job borrows in the groups' fair-share views
     * @param shifts          moves a split team's own jobs out of a full group its waiting job needs
     */
    GroupDecision(
            Round round,
            OwnRound own,
            Workspace ws,
            RoundBook book,
            Set<String> clusterModels,
            RoundShares shares,
            GroupShift shifts) {
        this.round = round;
        this.own = own;
        this.ws = ws;
        this.actions = book.actions();
        this.placedThisRound = book.placedThisRound();
        this.clusterModels = Set.copyOf(clusterModels);
        this.shares = shares;
        this.shifts = shifts;
    }

    boolean decide(JobSpec job) {
        QuotaLedger whole = ws.ledger();
        long least = Demands.leastMilli(job, ws.state().nodes());
        GroupTargets where = GroupTargets.of(job, whole, clusterModels, least);
        boolean withinMax = !whole.exceedsMax(job.team(), least) && !whole.exceedsDepartmentMax(job.team(), least);
        if (where.capped() != null) {
            if (displacesOwnAtGroupMax(job)) {
                return true;
            }
            actions.add(new PlanAction.KeepPending(job.id(), where.capped()));
            return false;
        }
        List<String> notes = new ArrayList<>();
        List<GroupTargets.Target> withRoom = new ArrayList<>();
        for (GroupTargets.Target t : withinMax ? where.targets() : List.<GroupTargets.Target>of()) {
            QuotaLedger view = whole.inGroup(t.group());
            if (hasRoom(view, job, t)) {
                withRoom.add(t);
            } else {
                notes.add(GroupTargets.noRoom(t, view.total(job.team())));
            }
        }
        for (boolean idleOnly : new boolean[] {true, false}) {
            for (GroupTargets.Target t : withRoom) {
                if (round.decideIn(job, whole.inGroup(t.group()), Map.of(), t.job(), idleOnly)) {
                    return true;
                }
                if (!idleOnly) {
                    notes.add(t.group().name() + ": " + lastReason(true));
                }
            }
        }
        for (GroupTargets.Target t : withinMax ? where.targets() : List.<GroupTargets.Target>of()) {
            if (!withRoom.contains(t) && shiftInto(job, t)) {
                return true;
            }
        }
        Team team = whole.team(job.team());
        QuotaLedger borrowing = team.splitsGuarantee() ? whole.borrowing(job.team()) : whole;
        List<ModelGroup> order =
                shares.perGroup() && job.preemptible() && withinMax && !borrowing.fitsGuarantee(job.team(), least)
                        ? shares.landingOrder(where.allowed())
                        : List.of();
        if (order.isEmpty()
                ? round.decideIn(job, borrowing, Map.of(), where.allowed(), false)
                : borrow(job, where.allowed(), order, notes.isEmpty())) {
            return true;
        }
        if (!notes.isEmpty()) {
            String reason = "waits for " + String.join("; ", notes) + "; to borrow: " + lastReason(false);
            actions.set(actions.size() - 1, new PlanAction.KeepPending(job.id(), reason));
        }
        return false;
    }

    /**
     * Borrows in one model group at a time, in the fair-share view of each ({@link QuotaLedger#sharedIn}, with the
     * group's fair shares): first on idle GPUs of any group in {@code order}, then by reclaim in each. When none works
     * the reason names every group tried: "to borrow in H100-80GB: ...; in A100-SXM4-80GB: ...".
     *
     * @param alone whether nothing else will be said of the job (then the reason says "to borrow")
     */
    private boolean borrow(JobSpec job, JobSpec allowed, List<ModelGroup> order, boolean alone) {
        List<String> why = new ArrayList<>();
        for (boolean idleOnly : new boolean[] {true, false}) {
            for (ModelGroup g : order) {
                JobSpec restricted = restricted(allowed, g);
                if (round.decideIn(
                        job,
                        ws.ledger().sharedIn(g, job.team()),
                        shares.groups().in(g),
                        restricted,
                        idleOnly)) {
                    return true;
                }
                if (!idleOnly) {
                    why.add("in " + g.name() + ": " + lastReason(true));
                }
            }
        }
        actions.add(new PlanAction.KeepPending(job.id(), (alone ? "to borrow " : "") + String.join("; ", why)));
        return false;
    }

    /**
     * Decides the job in a group whose guarantee the team has filled, after moving the team's own jobs that may run in
     * another of its groups with room out of it ({@link GroupShift}); when the job is then neither placed on idle GPUs
     * nor by reclaim in the group, the moves are undone and the plan is as before. A preemptible job that fits on idle
     * GPUs of the group moves nothing: it borrows them there ({@link #borrowsIdleIn}), and a shift is left for when
     * the group has no idle room for it, since a move restarts a running job.
     */
    private boolean shiftInto(JobSpec job, GroupTargets.Target t) {
        if (shifts.movesAny() && job.preemptible() && borrowsIdleIn(job, t)) {
            return true;
        }
        long milli = Demands.leastMilli(t.job(), ws.state().nodes());
        Optional<GroupShift.Shift> shift = shifts.makeRoom(job.team(), t.group(), milli, view -> hasRoom(view, job, t));
        if (shift.isEmpty()) {
            return false;
        }
        List<PlanAction.Move> moves = shift.get().moves();
        int mark = actions.size();
        actions.addAll(moves);
        moves.forEach(m -> placedThisRound.add(m.job()));
        for (boolean idleOnly : new boolean[] {true, false}) {
            if (round.decideIn(job, ws.ledger().inGroup(t.group()), Map.of(), t.job(), idleOnly)) {
                return true;
            }
        }
        actions.subList(mark, actions.size()).clear();
        moves.forEach(m -> placedThisRound.remove(m.job()));
        shifts.undo(shift.get());
        return false;
    }

    /**
     * Places a preemptible job on idle GPUs of the target's group as a borrower (in the group's fair-share view, as
     * {@link #borrow} would there): the group has room for it now, so moving the team's own job out of it would restart
     * that job only to change which of the two the group's guarantee covers. Records nothing when it fails.
     */
    private boolean borrowsIdleIn(JobSpec job, GroupTargets.Target t) {
        QuotaLedger whole = ws.ledger();
        if (shares.perGroup()) {
            return round.decideIn(
                    job, whole.sharedIn(t.group(), job.team()), shares.groups().in(t.group()), t.job(), true);
        }
        QuotaLedger borrowing = whole.team(job.team()).splitsGuarantee() ? whole.borrowing(job.team()) : whole;
        return round.decideIn(job, borrowing, Map.of(), t.job(), true);
    }

    /**
     * A job held back by a maximum for a model group takes the place of its team's lower-priority jobs in that group,
     * as at its team's overall maximum (Kueue's withinClusterQueue LowerPriority at a flavor's borrowing limit; KAI and
     * Volcano within a queue): whether the maximum is the team's or its department's, and whether the team's guarantee
     * is split or "any model". In the group's maxima view ({@link QuotaLedger#cappedIn}) every maximum that holds the
     * job back there, the overall ones translated, is a maximum of the view, so the round frees first, among the
     * team's own jobs on the group's nodes, what the job would bring the team or the department beyond them. Before,
     * only a split team's own group maximum was decided so (in {@link QuotaLedger#inGroup}, where a team of "any
     * model" and a department's group maximum do not show), and the other cases waited. Groups in the team's declared
     * order, then its department's; records nothing when it fails.
     */
    private boolean displacesOwnAtGroupMax(JobSpec job) {
        QuotaLedger whole = ws.ledger();
        for (ModelGroup g : cappingGroups(whole.team(job.team()))) {
            JobSpec inGroup = restricted(job, g);
            if (inGroup.allowedModels().isEmpty()) {
                continue;
            }
            QuotaLedger view = whole.cappedIn(g);
            if (view.beyondMaxima(
                            job.team(), Demands.leastMilli(inGroup, ws.state().nodes()))
                    == 0) {
                continue;
            }
            int mark = actions.size();
            if (own.displacesOwnIn(job, view, inGroup)) {
                return true;
            }
            actions.subList(mark, actions.size()).clear();
        }
        return false;
    }

    /** The groups the team's or its department's maxima cap: the team's in its declared order, then the department's. */
    private static List<ModelGroup> cappingGroups(Team team) {
        List<ModelGuarantee> all = new ArrayList<>(team.modelGuarantees().groups());
        if (team.department() != null) {
            all.addAll(team.department().modelGuarantees().groups());
        }
        List<ModelGroup> groups = new ArrayList<>();
        for (ModelGuarantee g : all) {
            if (g.hasMax() && groups.stream().noneMatch(g.group()::overlaps)) {
                groups.add(g.group());
            }
        }
        return groups;
    }

    /** The job restricted to the group's models it may use. */
    private JobSpec restricted(JobSpec job, ModelGroup g) {
        Set<String> models = new TreeSet<>(job.allowedModels().isEmpty() ? clusterModels : job.allowedModels());
        models.retainAll(g.models());
        return job.withAllowedModels(models);
    }

    /**
     * Whether the job would run within its team's guarantee (for a split team: in a group it may use) if placed now.
     * The answer for the last job asked holds for a job decided alike ({@link RepeatedRefusals#decidedAlike}) in the
     * same view until the next booking: a pass asks it of every queued job, most of them in runs of like jobs.
     */
    boolean wouldBeInQuota(JobSpec job) {
        QuotaLedger ledger = ws.ledger();
        Boolean known = lastInQuota.get(job, ledger, ws.bookings());
        if (known != null) {
            return known;
        }
        boolean answer = inQuota(job, ledger);
        lastInQuota.put(job, ledger, ws.bookings(), answer);
        return answer;
    }

    private boolean inQuota(JobSpec job, QuotaLedger ledger) {
        long least = Demands.leastMilli(job, ws.state().nodes());
        if (ledger.team(job.team()).splitsGuarantee()) {
            return GroupTargets.of(job, ledger, clusterModels, least).targets().stream()
                    .anyMatch(t -> hasRoom(ledger.inGroup(t.group()), job, t));
        }
        // a team's guarantee is decided first only while its department, with the job, stays within its own: a team
        // whose department already holds more takes its guarantee back inside the department, in the borrowing order
        return ledger.fitsGuarantee(job.team(), least)
                && (ledger.team(job.team()).department() == null || ledger.fitsDepartmentGuarantee(job.team(), least));
    }

    /** The reason the last failed decision recorded; taken back from the plan when {@code drop}. */
    private String lastReason(boolean drop) {
        PlanAction.KeepPending last = (PlanAction.KeepPending) actions.get(actions.size() - 1);
        if (drop) {
            actions.remove(actions.size() - 1);
        }
        return last.reason();
    }

    /** Whether the job fits the team's guarantee in the target's group. */
    private boolean hasRoom(QuotaLedger view, JobSpec job, GroupTargets.Target t) {
        long milli = Demands.leastMilli(t.job(), ws.state().nodes());
        return job.preemptible()
                ? view.fitsGuarantee(job.team(), milli)
                : view.fitsGuaranteeNonPreemptible(job.team(), milli);
    }
}

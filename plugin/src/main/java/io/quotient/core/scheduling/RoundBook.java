package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The plan a planning round writes, in order (evictions and moves before the placement they make room for), and the
 * jobs it places: a later decision of the same round never evicts or moves them ({@link ReclaimSearch}). Placements
 * book the job as its owner asked it, even while a copy restricted to one model group's models is decided.
 */
final class RoundBook {

    private final Workspace ws;
    private final Instant now;
    private final List<PlanAction> actions = new ArrayList<>();
    private final Set<JobId> placedThisRound = new HashSet<>();
    /** The job as asked while a restricted copy of it is decided, or null. */
    private JobSpec asked;

    RoundBook(Workspace ws, Instant now) {
        this.ws = ws;
        this.now = now;
    }

    /** The plan so far, live: a group's decision takes a failed try's reason back from it. */
    List<PlanAction> actions() {
        return actions;
    }

    Set<JobId> placedThisRound() {
        return placedThisRound;
    }

    /** Books placements as {@code job} asked while a restricted copy of it is decided; null ends that. */
    void asking(JobSpec job) {
        asked = job;
    }

    /** Places the job on one node, in quota when its team's guarantee (as the ledger shows it now) covers it. */
    boolean place(JobSpec job, Allocation allocation) {
        PlacedJob placed = ws.placement(asAsked(job), allocation, state(job, allocation.totalGpuMilli()), now);
        ws.add(placed, allocation);
        return placed(placed);
    }

    /** Books a gang's replicas whole, in quota when its team's guarantee covers them all. */
    boolean book(JobSpec job, List<Allocation> replicas) {
        long milli = replicas.stream().mapToLong(Allocation::totalGpuMilli).sum();
        PlacedJob placed = ws.placement(asAsked(job), replicas, state(job, milli), now);
        ws.add(placed, replicas);
        return placed(placed);
    }

    private QuotaState state(JobSpec job, long milli) {
        return !job.preemptible() || ws.ledger().fitsGuarantee(job.team(), milli)
                ? QuotaState.IN_QUOTA
                : QuotaState.OVER_QUOTA;
    }

    private boolean placed(PlacedJob placed) {
        actions.add(new PlanAction.Place(placed));
        placedThisRound.add(placed.id());
        return true;
    }

    /** The job as its owner asked it (not the copy restricted to a model group's models). */
    private JobSpec asAsked(JobSpec job) {
        return asked != null ? asked : job;
    }

    boolean keepPending(JobSpec job, String reason) {
        actions.add(new PlanAction.KeepPending(job.id(), reason));
        return false;
    }

    /**
     * Records the evictions and moves that made room for the job, before its placement, with each victim's reason:
     * the evictions first, then the moves in the order given. The service applies a plan action by action
     * ({@code PlanApplier}), so every prefix of it must fit: evicting first only frees GPUs, and a move may need GPUs
     * an eviction freed (a gang's relocation frees a destination by evicting a borrowed job there).
     */
    void recordRoom(
            JobSpec job, List<PlanAction.Move> moves, List<PlacedJob> victims, ReclaimStep rule, ReclaimRules rules) {
        victims.forEach(v -> actions.add(
                new PlanAction.Evict(v.id(), EvictionReasons.of(ws.ledger(), rules, v, victims, job, rule))));
        actions.addAll(moves);
        // a moved job is placed anew by this plan: a later decision of the same plan neither evicts nor moves it again
        moves.forEach(m -> placedThisRound.add(m.job()));
    }

    /** The reason of the last decision when it kept its job pending, or null. */
    PlanAction.KeepPending lastPending() {
        return !actions.isEmpty() && actions.get(actions.size() - 1) instanceof PlanAction.KeepPending k ? k : null;
    }

    Plan plan() {
        return new Plan(actions);
    }
}

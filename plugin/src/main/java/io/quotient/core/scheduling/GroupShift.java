package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.PlacedJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Makes room in a split team's full model group for a job of the team that may run only there, by moving (never
 * evicting) the team's own jobs of that group that may also run in another of its groups whose guarantee has room:
 * the fungibility rule charges an unpinned job to the first group with room, so the team's unpinned jobs can hold the
 * guarantee of a group its pinned jobs need. A job moves onto idle GPUs of another group of the team (in the team's
 * declared order) where it stays within the team's guarantee, so the team holds as much in quota as before and the
 * group it left has room for the waiting job. Only preemptible single-node jobs past their minimum runtime move
 * ({@link Rebalancer#movable}), not jobs this plan placed or moved, at most {@code maxMoves} per decision; moves are
 * tried on the workspace and {@link #undo undone} unless the waiting job is then placed.
 */
final class GroupShift {

    /** The moves of one shift, applied to the workspace in this order (each undoable, {@link GangStep}). */
    record Shift(List<GangStep> steps) {

        List<PlanAction.Move> moves() {
            return steps.stream()
                    .map(s -> new PlanAction.Move(s.job(), s.movedTo()))
                    .toList();
        }
    }

    private final Workspace ws;
    private final Set<String> clusterModels;
    private final Set<JobId> placedThisRound;
    private final Function<JobSpec, Optional<Allocation>> placeOnIdle;
    private final int maxMoves;
    private final Instant now;

    /**
     * @param placedThisRound jobs the plan placed or moved (read live): never moved again by it
     * @param placeOnIdle     where a job (restricted to some models) would go on idle GPUs, or empty
     */
    GroupShift(
            Workspace ws,
            Set<String> clusterModels,
            Set<JobId> placedThisRound,
            Function<JobSpec, Optional<Allocation>> placeOnIdle,
            int maxMoves,
            Instant now) {
        this.ws = ws;
        this.clusterModels = Set.copyOf(clusterModels);
        this.placedThisRound = placedThisRound;
        this.placeOnIdle = placeOnIdle;
        this.maxMoves = maxMoves;
        this.now = now;
    }

    /**
     * Moves the team's jobs out of {@code full} until the team has room there for {@code milli} more (as
     * {@code hasRoom} judges), or changes nothing and returns empty.
     */
    Optional<Shift> makeRoom(String team, ModelGroup full, long milli, Predicate<QuotaLedger> hasRoom) {
        List<GangStep> steps = new ArrayList<>();
        for (PlacedJob job : candidates(team, full)) {
            if (hasRoom.test(ws.ledger().inGroup(full)) || steps.size() >= maxMoves) {
                break;
            }
            destination(job, full).ifPresent(to -> {
                GangStep step = GangStep.move(ws, job, to, now);
                step.apply(ws);
                steps.add(step);
            });
        }
        Shift shift = new Shift(steps);
        if (steps.isEmpty() || !hasRoom.test(ws.ledger().inGroup(full))) {
            undo(shift);
            return Optional.empty();
        }
        return Optional.of(shift);
    }

    /** Whether a shift may move anything at all (a policy may allow no moves per decision). */
    boolean movesAny() {
        return maxMoves > 0;
    }

    /** Puts the moved jobs back where they were. */
    void undo(Shift shift) {
        for (int i = shift.steps().size() - 1; i >= 0; i--) {
            shift.steps().get(i).undo(ws);
        }
    }

    /** The team's movable jobs on the group's nodes that may run elsewhere, largest first (fewest restarts). */
    private List<PlacedJob> candidates(String team, ModelGroup full) {
        List<PlacedJob> jobs = new ArrayList<>();
        for (PlacedJob job : ws.placed()) {
            JobSpec spec = job.spec();
            if (spec.team().equals(team)
                    && Rebalancer.movable(job, now)
                    && !spec.gang().spansNodes()
                    && !placedThisRound.contains(job.id())
                    && ws.allocation(job.id()).isPresent()
                    && full.models().contains(modelOf(job))
                    && !full.models().containsAll(usable(spec))) {
                jobs.add(job);
            }
        }
        jobs.sort(Comparator.comparingLong(PlacedJob::gpuMilli)
                .reversed()
                .thenComparing(PlacedJob::startedAt, Comparator.reverseOrder())
                .thenComparing(j -> j.id().toString()));
        return jobs;
    }

    /**
     * Idle GPUs for the job in the first other group of its team (declared order) whose guarantee has room for it,
     * counting no more GPU milli than it holds now.
     */
    private Optional<Allocation> destination(PlacedJob job, ModelGroup full) {
        QuotaLedger ledger = ws.ledger();
        GroupTargets where = GroupTargets.of(job.spec(), ledger, clusterModels, job.gpuMilli());
        for (GroupTargets.Target t : where.targets()) {
            QuotaLedger view = ledger.inGroup(t.group());
            boolean room = job.spec().preemptible()
                    ? view.fitsGuarantee(job.spec().team(), job.gpuMilli())
                    : view.fitsGuaranteeNonPreemptible(job.spec().team(), job.gpuMilli());
            if (t.group().equals(full) || !room) {
                continue;
            }
            Optional<Allocation> to = placeOnIdle.apply(t.job()).filter(a -> a.totalGpuMilli() <= job.gpuMilli());
            if (to.isPresent()) {
                return to;
            }
        }
        return Optional.empty();
    }

    private Set<String> usable(JobSpec spec) {
        return spec.allowedModels().isEmpty() ? clusterModels : spec.allowedModels();
    }

    private String modelOf(PlacedJob job) {
        return ws.state().node(ws.nodeIndex(job.node())).gpuModel();
    }
}

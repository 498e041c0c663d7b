package io.quotient.core.scheduling;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.PlacedJob;
import java.time.Instant;
import java.util.List;

/**
 * One eviction ({@code movedTo} null) or move tried on the workspace, with what it freed so that it can be undone:
 * the steps that free nodes for a gang ({@link GangReclaim}) and the moves of a group shift ({@link GroupShift}).
 *
 * @param job     the job as it was before the step
 * @param freed   what it held then
 * @param movedTo the job at its new place, for a move
 * @param to      where a move sent it
 */
record GangStep(PlacedJob job, List<Allocation> freed, PlacedJob movedTo, Allocation to) {

    static GangStep eviction(PlacedJob job, List<Allocation> freed) {
        return new GangStep(job, freed, null, null);
    }

    /** The move of {@code job} (as the workspace holds it now) to {@code to}, restarted there at {@code now}. */
    static GangStep move(Workspace ws, PlacedJob job, Allocation to, Instant now) {
        return new GangStep(job, ws.allocations(job.id()), ws.placement(job.spec(), to, job.quotaState(), now), to);
    }

    boolean eviction() {
        return movedTo == null;
    }

    /** Applies the step to the workspace (the job must hold what {@link #freed} says). */
    void apply(Workspace ws) {
        ws.remove(job.id());
        if (!eviction()) {
            ws.add(movedTo, to);
        }
    }

    /** Undoes the step (applied last among those still applied). */
    void undo(Workspace ws) {
        if (!eviction()) {
            ws.remove(movedTo.id());
        }
        ws.add(job, freed);
    }
}

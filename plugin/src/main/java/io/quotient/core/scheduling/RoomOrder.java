package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The order in which a plan lists the steps a trial took to make room (a gang's evictions and moves, round after
 * round): the service applies a plan action by action ({@code PlanApplier}), so every prefix of it must fit, and a
 * trial may move a job onto GPUs an earlier step freed (a relocation evicts a borrowed job to give a protected one a
 * destination). Each job's last step is taken once, from where the job runs (a job moved, then moved again or evicted
 * from where it went, is moved or evicted from where it runs): the evictions first, since evicting only frees GPUs,
 * then each move once its destination is free.
 */
final class RoomOrder {

    private RoomOrder() {}

    /**
     * Applies the steps (taken on this workspace and undone since) in plan order and returns them as applied, each
     * from where its job runs; empty, with nothing applied, when no order of the single moves fits (a swap, or moves
     * only a job's intermediate place made possible): the room is then not taken rather than a GPU double-booked.
     */
    static Optional<List<GangStep>> apply(Workspace ws, List<GangStep> steps) {
        Map<JobId, Integer> lastStep = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            lastStep.put(steps.get(i).job().id(), i);
        }
        List<GangStep> applied = new ArrayList<>();
        List<GangStep> moves = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            GangStep step = steps.get(i);
            if (lastStep.get(step.job().id()) != i) {
                continue;
            }
            PlacedJob now = ws.placed(step.job().id()).orElseThrow();
            GangStep fromHere = new GangStep(now, ws.allocations(now.id()), step.movedTo(), step.to());
            if (fromHere.eviction()) {
                fromHere.apply(ws);
                applied.add(fromHere);
            } else {
                moves.add(fromHere);
            }
        }
        while (!moves.isEmpty()) {
            GangStep next = moves.stream()
                    .filter(m -> ws.state().canAllocate(m.to()))
                    .findFirst()
                    .orElse(null);
            if (next == null) {
                for (int i = applied.size() - 1; i >= 0; i--) {
                    applied.get(i).undo(ws);
                }
                return Optional.empty();
            }
            moves.remove(next);
            next.apply(ws);
            applied.add(next);
        }
        return Optional.of(applied);
    }
}

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The order a plan lists a trial's steps in: each prefix must fit, as the service applies the plan action by action.
 * Five nodes of two GPUs; 2-GPU jobs x on node-1, y on node-2, w on node-3; node-4 and node-5 free.
 */
class RoomOrderTest {

    private Workspace ws;
    private Instant now;
    private final List<GangStep> trial = new ArrayList<>();

    @BeforeEach
    void cluster() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(5, 2)).team("team-a", 0);
        run.observe(ClusterRun.job("team-a", "x", 2), "node-1", 0, 2, Duration.ofHours(1));
        run.observe(ClusterRun.job("team-a", "y", 2), "node-2", 0, 2, Duration.ofHours(1));
        run.observe(ClusterRun.job("team-a", "w", 2), "node-3", 0, 2, Duration.ofHours(1));
        ws = Workspace.of(run.snapshot());
        now = run.now;
    }

    /** Moves the job onto both GPUs of node {@code index} (0 is node-1) on the workspace, as a trial does. */
    private void move(String job, int index) {
        PlacedJob at = ws.placed(new JobId("team-a", job)).orElseThrow();
        GangStep step = GangStep.move(ws, at, new Allocation(index, new int[] {0, 1}, 1000, 1000, 1024), now);
        step.apply(ws);
        trial.add(step);
    }

    private void evict(String job) {
        PlacedJob at = ws.placed(new JobId("team-a", job)).orElseThrow();
        GangStep step = GangStep.eviction(at, ws.allocations(at.id()));
        step.apply(ws);
        trial.add(step);
    }

    /** Undoes the trial, latest first, as the reclaim does before it writes the plan; then orders it. */
    private Optional<List<String>> ordered() {
        for (int i = trial.size() - 1; i >= 0; i--) {
            trial.get(i).undo(ws);
        }
        return RoomOrder.apply(ws, trial)
                .map(steps -> steps.stream()
                        .map(s -> s.job().id().name()
                                + (s.eviction()
                                        ? " evicted from " + s.job().node()
                                        : " " + s.job().node() + " -> "
                                                + s.movedTo().node()))
                        .toList());
    }

    private String where(String job) {
        return ws.placed(new JobId("team-a", job)).map(PlacedJob::node).orElse("evicted");
    }

    @Test
    void evictionsComeFirstAndAJobMovedTwiceMovesOnceWhenItsGpusAreFree() {
        move("x", 3); // x to node-4
        move("y", 0); // y onto x's first place, node-1
        evict("w");
        move("x", 2); // x on to node-3, which w's eviction freed

        // listed as the trial went, y would go onto node-1 while x still runs there, and x onto w's GPUs
        assertThat(ordered()).contains(List.of("w evicted from node-3", "x node-1 -> node-3", "y node-2 -> node-1"));
        assertThat(List.of(where("x"), where("y"), where("w"))).containsExactly("node-3", "node-1", "evicted");
    }

    @Test
    void aSwapNoOrderOfSingleMovesFitsIsNotTakenAndChangesNothing() {
        evict("w");
        move("x", 3); // x to node-4 for a while
        move("y", 0); // y onto node-1
        move("x", 1); // x onto y's first place, node-2

        assertThat(ordered()).isEmpty();
        assertThat(List.of(where("x"), where("y"), where("w"))).containsExactly("node-1", "node-2", "node-3");
        assertThat(ws.state().gpuFreeOnNode(2)).as("w's GPUs held again").isZero();
    }
}

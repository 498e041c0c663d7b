package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The borrowing pass reads a fair-share position once per {@link RoundShares#samePositionKey}, not once per waiting
 * job: two jobs with the same key must have the same position, on any bookings, else the pass would order a team's
 * later jobs by an earlier job's position.
 */
class SharePositionKeyProperties {

    private static final List<String> TEAMS = List.of("a", "b", "c");
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Property(tries = 300)
    void jobsWithTheSameKeyHaveTheSamePosition(
            @ForAll @IntRange(min = 1, max = 3) int nodeCount,
            @ForAll @Size(max = 12) List<@IntRange(min = 0, max = 11) Integer> placedShapes,
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 11) Integer> waitingShapes,
            @ForAll @Size(3) List<@IntRange(min = 0, max = 8) Integer> guarantees,
            @ForAll @Size(3) List<@IntRange(min = 0, max = 3) Integer> weights,
            @ForAll @Size(3) List<@IntRange(min = 0, max = 4000) Integer> past) {
        List<NodeSpec> nodes = ClusterRun.nodes(nodeCount, 8);
        Map<String, Team> teams = new HashMap<>();
        Map<String, Double> pastBorrowed = new HashMap<>();
        for (int t = 0; t < TEAMS.size(); t++) {
            String name = TEAMS.get(t);
            teams.put(name, new Team(name, guarantees.get(t) * 1000L, Team.UNLIMITED, weights.get(t), 0));
            pastBorrowed.put(name, (double) past.get(t));
        }
        List<PlacedJob> placed = new ArrayList<>();
        int[] used = new int[nodeCount];
        for (int i = 0; i < placedShapes.size(); i++) {
            int shape = placedShapes.get(i);
            int gpus = 1 + shape / 3;
            for (int n = 0; n < nodeCount; n++) {
                if (used[n] + gpus <= 8) {
                    JobSpec spec = ClusterRun.job(TEAMS.get(shape % 3), "placed-" + i, gpus);
                    List<Integer> indices =
                            IntStream.range(used[n], used[n] + gpus).boxed().toList();
                    placed.add(new PlacedJob(spec, nodes.get(n).name(), indices, 1000, QuotaState.OVER_QUOTA, NOW));
                    used[n] += gpus;
                    break;
                }
            }
        }
        List<JobSpec> waiting = new ArrayList<>();
        for (int i = 0; i < waitingShapes.size(); i++) {
            int shape = waitingShapes.get(i);
            waiting.add(ClusterRun.job(TEAMS.get(shape % 3), "waiting-" + i, 1 + shape / 3));
        }
        SchedulingSnapshot snapshot =
                new SchedulingSnapshot(nodes, Set.of(), placed, List.of(), teams, NOW).withPastBorrowed(pastBorrowed);
        RoundShares shares = RoundShares.of(Workspace.of(snapshot), waiting, snapshot.pastBorrowedMilli());

        for (JobSpec first : waiting) {
            for (JobSpec second : waiting) {
                if (shares.samePositionKey(first).equals(shares.samePositionKey(second))) {
                    assertThat(shares.position(second))
                            .as("%s and %s", first.id(), second.id())
                            .isEqualTo(shares.position(first));
                }
            }
        }
    }
}

package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FairShareTest {

    private static Map<String, Team> teams(Team... teams) {
        Map<String, Team> map = new LinkedHashMap<>();
        for (Team t : teams) {
            map.put(t.name(), t);
        }
        return map;
    }

    @Test
    void guaranteesFirstThenTheRestByWeight() {
        Map<String, Long> share = FairShare.of(
                teams(new Team("a", 10_000, Team.UNLIMITED, 1, 0), new Team("b", 10_000, Team.UNLIMITED, 3, 0)),
                Map.of("a", 40_000L, "b", 40_000L),
                40_000);
        assertThat(share).containsEntry("a", 15_000L).containsEntry("b", 25_000L);
    }

    @Test
    void whatATeamCannotUseGoesToTheOthers() {
        Map<String, Long> share = FairShare.of(
                teams(new Team("a", 0, Team.UNLIMITED, 1, 0), new Team("b", 0, Team.UNLIMITED, 1, 0)),
                Map.of("a", 4_000L, "b", 40_000L),
                40_000);
        assertThat(share).containsEntry("a", 4_000L).containsEntry("b", 36_000L);
    }

    @Test
    void maximumsAndPrioritiesBound() {
        Map<String, Long> share = FairShare.of(
                teams(new Team("low", 0, Team.UNLIMITED, 5, 0), new Team("high", 0, 30_000, 1, 1)),
                Map.of("low", 40_000L, "high", 40_000L),
                40_000);
        assertThat(share).containsEntry("high", 30_000L).containsEntry("low", 10_000L);
    }

    /**
     * Guarantees beyond the cluster (overcommitted, or a node lost) are met in their proportions, each as far as
     * demanded, higher-priority teams' first: handed out in name order, team "a" got all 8 GPUs and "b" none, and
     * renaming a team changed who was owed GPUs.
     */
    @Test
    void guaranteesBeyondTheClusterAreMetInProportionWhateverTheTeamsAreCalled() {
        for (String first : new String[] {"a", "z"}) {
            Map<String, Long> share =
                    FairShare.of(teams(Team.of(first, 8), Team.of("b", 8)), Map.of(first, 8_000L, "b", 8_000L), 8_000);
            assertThat(share).as(first).containsEntry(first, 4_000L).containsEntry("b", 4_000L);
        }
        Map<String, Long> demandBound = FairShare.of(
                teams(Team.of("a", 8), Team.of("b", 8), Team.of("c", 4)),
                Map.of("a", 1_000L, "b", 8_000L, "c", 8_000L),
                10_000);
        assertThat(demandBound)
                .containsEntry("a", 1_000L)
                .containsEntry("b", 6_000L)
                .containsEntry("c", 3_000L);
        Map<String, Long> byPriority = FairShare.of(
                teams(new Team("low", 6_000, Team.UNLIMITED, 1, 0), new Team("high", 6_000, Team.UNLIMITED, 1, 1)),
                Map.of("low", 6_000L, "high", 6_000L),
                8_000);
        assertThat(byPriority).containsEntry("high", 6_000L).containsEntry("low", 2_000L);
    }

    @Test
    void aTeamWithoutDemandGetsNothing() {
        Map<String, Long> share =
                FairShare.of(teams(Team.of("idle", 20), Team.of("busy", 20)), Map.of("busy", 30_000L), 40_000);
        assertThat(share).containsEntry("idle", 0L).containsEntry("busy", 30_000L);
    }

    @Test
    void theSharesDoNotDependOnTheOrderOfTheTeamsMap() {
        // 10,000 milli over three equal claims: the milli left by rounding must go to the same team in any order
        Team a = new Team("a", 0, Team.UNLIMITED, 1, 0);
        Team b = new Team("b", 0, Team.UNLIMITED, 1, 0);
        Team c = new Team("c", 0, Team.UNLIMITED, 1, 0);
        Map<String, Long> demand = Map.of("a", 9_000L, "b", 9_000L, "c", 9_000L);

        Map<String, Long> forward = FairShare.of(teams(a, b, c), demand, 10_000);
        Map<String, Long> backward = FairShare.of(teams(c, b, a), demand, 10_000);

        assertThat(forward.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(10_000L);
        assertThat(backward).isEqualTo(forward);
    }

    @Test
    void aSnapshotIteratesItsTeamsInNameOrder() {
        Map<String, Team> teams = new LinkedHashMap<>();
        for (String name : List.of("m", "c", "x", "a", "q", "f", "z", "b")) {
            teams.put(name, Team.of(name, 1));
        }
        SchedulingSnapshot snapshot =
                new SchedulingSnapshot(List.of(), Set.of(), List.of(), List.of(), teams, Instant.EPOCH);

        assertThat(snapshot.teams().keySet()).containsExactly("a", "b", "c", "f", "m", "q", "x", "z");
    }
}

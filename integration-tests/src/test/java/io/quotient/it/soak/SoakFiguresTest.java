package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SoakFiguresTest {

    private static final Map<String, Long> GUARANTEES = Map.of("team-3", 26_500L, "team-a", 20_000L, "team-b", 20_000L);

    @Test
    void aTeamsReclaimEndsWhenItHoldsWhatItAskedForEvenIfAnOlderJobOfItsOwnWentFirst() {
        SoakFigures figures = new SoakFigures();
        figures.awaitReclaim("team-3/j342", "team-3", 25_700, 1_000);

        figures.teamsHold(Map.of("team-3", 25_200L), GUARANTEES, Set.of("team-3/j342"), 2_000);
        figures.teamsHold(Map.of("team-3", 34_200L), GUARANTEES, Set.of("team-3/j342"), 4_000);
        figures.reclaimed("team-3/j342", 39_000);

        assertThat(figures.describe())
                .contains("reclaim latency (team: a job within its team's guarantee accepted, to the team holding what"
                        + " it held plus that job's demand): n=1 p50 3.0 s")
                .contains("reclaim latency (job within its team's guarantee, accepted to placed): n=1 p50 38.0 s");
    }

    @Test
    void aJobPlacedEndsItsTeamsAskAndAnAskNeverMetIsCounted() {
        SoakFigures figures = new SoakFigures();
        figures.awaitReclaim("team-a/a1", "team-a", 2_000, 0);
        figures.awaitReclaim("team-b/b1", "team-b", 1_000, 0);

        figures.reclaimed("team-a/a1", 5_000);
        figures.teamsHold(
                Map.of("team-a", 2_000L, "team-b", 500L), GUARANTEES, Set.of("team-a/a1", "team-b/b1"), 6_000);

        assertThat(figures.describe()).contains("n=1 p50 5.0 s, p99 5.0 s, max 5.0 s; not met: 1; withdrawn");
    }

    @Test
    void aGuaranteeLoweredMeanwhileAsksForLessAndADeletedJobWithdrawsItsAsk() {
        SoakFigures figures = new SoakFigures();
        figures.awaitReclaim("team-a/a1", "team-a", 4_000, 0);
        figures.awaitReclaim("team-b/b1", "team-b", 1_000, 0);

        figures.teamsHold(
                Map.of("team-a", 3_000L), Map.of("team-a", 3_000L, "team-b", 2_000L), Set.of("team-a/a1"), 7_000);

        assertThat(figures.describe())
                .contains("n=1 p50 7.0 s, p99 7.0 s, max 7.0 s; not met: 0;" + " withdrawn (job deleted unplaced): 1");
    }
}

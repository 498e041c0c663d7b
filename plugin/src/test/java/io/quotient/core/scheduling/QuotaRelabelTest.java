package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which stored quota states are stale: those that differ from the smallest cover of the guarantee now. */
class QuotaRelabelTest {

    private static final Map<String, Team> TEAMS = Map.of("a", Team.of("a", 4));

    private static PlacedJob placed(String name, int gpus, QuotaState stored, int minute) {
        return new PlacedJob(
                Scenario.job("a", name, gpus, 0),
                "node-0",
                IntStream.range(0, gpus).boxed().toList(),
                1000,
                stored,
                Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * minute));
    }

    @Test
    void namesTheJobsWhoseStoredStateTheCoverChanged() {
        // stored when placed, one after another: a2 and a1 were in quota then; since a5 came, a5 alone covers 4
        List<PlacedJob> jobs = List.of(
                placed("a2", 2, QuotaState.IN_QUOTA, 0),
                placed("a1", 1, QuotaState.IN_QUOTA, 1),
                placed("a5", 5, QuotaState.OVER_QUOTA, 2));

        assertThat(QuotaStates.stale(jobs, TEAMS, 10))
                .containsExactly(
                        new QuotaRelabel(new JobId("a", "a2"), QuotaState.OVER_QUOTA),
                        new QuotaRelabel(new JobId("a", "a1"), QuotaState.OVER_QUOTA),
                        new QuotaRelabel(new JobId("a", "a5"), QuotaState.IN_QUOTA));
    }

    @Test
    void namesNothingWhenTheStoredStatesAreCurrent() {
        List<PlacedJob> jobs =
                List.of(placed("a5", 5, QuotaState.IN_QUOTA, 0), placed("a1", 1, QuotaState.OVER_QUOTA, 1));

        assertThat(QuotaStates.stale(jobs, TEAMS, 10)).isEmpty();
    }

    @Test
    void namesAtMostTheBoundPerPassInTheJobsOrder() {
        List<PlacedJob> jobs = List.of(
                placed("a2", 2, QuotaState.IN_QUOTA, 0),
                placed("a1", 1, QuotaState.IN_QUOTA, 1),
                placed("a5", 5, QuotaState.OVER_QUOTA, 2));

        assertThat(QuotaStates.stale(jobs, TEAMS, 2))
                .extracting(QuotaRelabel::job)
                .containsExactly(new JobId("a", "a2"), new JobId("a", "a1"));
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> QuotaStates.stale(List.of(), TEAMS, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give 1 or more");
    }
}

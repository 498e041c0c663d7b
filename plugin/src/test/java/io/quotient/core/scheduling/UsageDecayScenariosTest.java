package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Usage-decayed fair share (issue 35): a team's decayed past borrowing ({@link UsageHistory}) lowers its part of
 * today's idle GPUs and moves it back in the borrowing order; guarantees are untouched. Two teams guaranteed 4 each
 * on 16 GPUs; yesterday team a borrowed 8 GPUs for 24 hours and b nothing; half-life 12 hours, window 7 days.
 */
class UsageDecayScenariosTest {

    private static final FairShareSettings DECAY = new FairShareSettings(Duration.ofHours(12), Duration.ofDays(7));

    /** The history after a's day of borrowing 8 GPUs, read {@code after} the day ended. */
    private static Map<String, Double> pastAfter(Duration after) {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory history = new UsageHistory(DECAY, clock);
        history.record(Map.of("a", 8000L));
        clock.advance(Duration.ofHours(24));
        history.record(Map.of());
        clock.advance(after);
        return history.decayedMilli();
    }

    private static Scenario twoTeams(Map<String, Double> past) {
        Scenario s = Scenario.nodes(16).team("a", 4, 1).team("b", 4, 1);
        s.run.pastBorrowed = past;
        for (int i = 0; i < 16; i++) {
            for (String team : List.of("a", "b")) {
                JobSpec job = Scenario.job(team, team + i, 1, 0);
                s.run.pending.put(job.id(), new PendingJob(job, s.run.now));
            }
            s.run.advance(Duration.ofSeconds(1));
        }
        return s;
    }

    /** Every team's fair share as the scheduler computes it now, with the past given. */
    private static Map<String, Long> fairShares(Scenario s, Map<String, Double> past) {
        return TeamShares.fairShares(
                s.run.teams,
                s.run.placed.values(),
                s.run.pending.values().stream().map(PendingJob::spec).toList(),
                s.run.nodes,
                past);
    }

    /** Re-queues once and checks what each team then holds. */
    private static void requeueAndExpect(Scenario s, double aHolds, double bHolds) {
        s.run.requeue();
        assertThat(s.run.held("a")).as(() -> state(s)).isEqualTo(aHolds);
        assertThat(s.run.held("b")).as(() -> state(s)).isEqualTo(bHolds);
    }

    @Test
    void aTeamThatBorrowedMoreYesterdayGetsLessOfTodaysIdleGpus() {
        // a's decayed borrowing right after its day: 8 x (1 - 2^-2) ~ 6 GPUs. The 8 idle GPUs beyond the guarantees
        // are divided so that past + today's borrowing per weight is equal: a 1, b 7.
        Map<String, Double> past = pastAfter(Duration.ZERO);
        assertThat(past.get("a")).isCloseTo(6000, within(1.0));
        Scenario s = twoTeams(past);
        requeueAndExpect(s, 5, 11);
        Map<String, Long> shares = fairShares(s, past);
        assertThat(shares).containsEntry("a", 5000L).containsEntry("b", 11000L);
    }

    @Test
    void itsGuaranteeIsItsOwnAllTheSame() {
        // b borrows all 12 GPUs beyond its guarantee; a, with its heavy past, deploys 4 jobs within its guarantee:
        // each takes a GPU back.
        Map<String, Double> past = pastAfter(Duration.ZERO);
        Scenario s = Scenario.nodes(16).team("a", 4, 1).team("b", 4, 1);
        s.run.pastBorrowed = past;
        for (int g = 0; g < 16; g++) {
            s.running("b", "b" + g, "node-0", 0, g);
        }
        for (int i = 0; i < 4; i++) {
            s.deploy(Scenario.job("a", "a" + i, 1, 0));
        }
        assertThat(s.run.held("a")).as(() -> state(s)).isEqualTo(4);
        assertThat(s.run.held("b")).isEqualTo(12);
    }

    @Test
    void sharesDecayToEqualityAfterSeveralHalfLives() {
        // five half-lives (60 hours) after a's day its decayed borrowing is 8 x (2^-5 - 2^-7) ~ 0.19 GPU: the idle
        // GPUs split evenly again (within that), and the 1-GPU jobs 8 and 8.
        Map<String, Double> past = pastAfter(Duration.ofHours(60));
        assertThat(past.get("a")).isCloseTo(187.5, within(1.0));
        Scenario s = twoTeams(past);
        requeueAndExpect(s, 8, 8);
        Map<String, Long> shares = fairShares(s, past);
        assertThat(shares.get("b") - shares.get("a")).isBetween(150L, 200L);
    }

    @Test
    void withoutDecayThePastCountsForNothing() {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory history = new UsageHistory(FairShareSettings.INSTANTANEOUS, clock);
        history.record(Map.of("a", 8000L));
        clock.advance(Duration.ofHours(24));
        assertThat(history.decayedMilli()).isEmpty();
        requeueAndExpect(twoTeams(history.decayedMilli()), 8, 8);
    }

    @Test
    void theHistorySurvivesItsDurableRecord() {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory history = new UsageHistory(DECAY, clock);
        history.record(Map.of("a", 8000L, "b", 2000L));
        clock.advance(Duration.ofHours(30));
        history.record(Map.of("b", 1000L));
        clock.advance(Duration.ofHours(3));
        UsageHistory restored = UsageHistory.restore(DECAY, clock, history.toRecord());
        assertThat(restored.decayedMilli()).isEqualTo(history.decayedMilli());
        UsageHistory otherWidth = UsageHistory.restore(
                new FairShareSettings(Duration.ofHours(12), Duration.ofDays(1)), clock, history.toRecord());
        assertThat(otherWidth.decayedMilli()).isEmpty();
    }

    @Test
    void badSettingsNameTheField() {
        assertThatThrownBy(() -> new FairShareSettings(Duration.ofHours(-1), Duration.ofDays(7)))
                .hasMessageContaining("fairShare.usageHalfLife");
        assertThatThrownBy(() -> new FairShareSettings(Duration.ofHours(1), Duration.ZERO))
                .hasMessageContaining("fairShare.window");
    }
}

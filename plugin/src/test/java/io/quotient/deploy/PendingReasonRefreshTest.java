package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PendingReasonRefreshTest {

    private static final JobId JOB = new JobId("team-3", "j342");
    private static final String HOLDS_25 = "team-3 has used its guarantee (25.2 of 26.5 GPUs)";
    private static final String HOLDS_26 = "team-3 has used its guarantee (26.1 of 26.5 GPUs)";

    private final MutableClock clock = new MutableClock(TestClocks.START);
    private final PendingReasonRefresh refresh = new PendingReasonRefresh(clock);

    @Test
    void aReasonThatSaysSomethingNewIsWrittenAtOnce() {
        refresh.written(JOB);

        assertThat(refresh.due(JOB, HOLDS_25, "no node has 2 free GPUs of model A100"))
                .isTrue();
    }

    @Test
    void aReasonWhoseFiguresAloneMovedWaitsForTheRefreshInterval() {
        refresh.written(JOB);

        assertThat(refresh.due(JOB, HOLDS_25, HOLDS_26)).isFalse();
        clock.advance(PendingReasonRefresh.FIGURES_REFRESH.minusSeconds(1));
        assertThat(refresh.due(JOB, HOLDS_25, HOLDS_26)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(refresh.due(JOB, HOLDS_25, HOLDS_26)).isTrue();
    }

    @Test
    void aJobWithoutAWriteOnThisReplicaGetsItsFiguresWrittenOnce() {
        assertThat(refresh.due(JOB, HOLDS_25, HOLDS_26)).isTrue();
        refresh.written(JOB);
        assertThat(refresh.due(JOB, HOLDS_25, HOLDS_26)).isFalse();
        assertThat(refresh.due(new JobId("team-3", "j343"), HOLDS_25, HOLDS_26)).isTrue();
    }

    @Test
    void aNewLeaderRewritesTheFiguresOfManyWaitingJobsInRationsNotAllInOnePass() {
        int due = 0;
        for (int i = 0; i < 500; i++) {
            due += refresh.due(new JobId("team-3", "j" + i), HOLDS_25, HOLDS_26) ? 1 : 0;
        }
        assertThat(due).isEqualTo(PendingReasonRefresh.FIGURES_BURST);

        clock.advance(Duration.ofSeconds(2));
        due = 0;
        for (int i = 0; i < 500; i++) {
            due += refresh.due(new JobId("team-3", "j" + i), HOLDS_25, HOLDS_26) ? 1 : 0;
        }
        assertThat(due).as("two seconds later").isEqualTo(2 * PendingReasonRefresh.FIGURES_PER_SECOND);
        assertThat(refresh.due(JOB, HOLDS_25, "no node has 2 free GPUs of model A100"))
                .as("a reason that says something new is never rationed")
                .isTrue();
    }

    @Test
    void figuresAreNumbersWithTheirDecimalsAndWordsAreTheRest() {
        assertThat(PendingReasonRefresh.sameWords(
                        "needs 4 nodes with 8 free A100s, 2 have them", "needs 4 nodes with 8 free A100s, 3 have them"))
                .isTrue();
        assertThat(PendingReasonRefresh.sameWords(
                        "Preempted by team-2 reclaiming its guarantee",
                        "Preempted by team-2 reclaiming its guarantee; still waiting: no room"))
                .isFalse();
    }
}

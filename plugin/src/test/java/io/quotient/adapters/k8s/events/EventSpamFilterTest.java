package io.quotient.adapters.k8s.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A burst of events per job and reason, then one per interval; other jobs and reasons are not held back. */
class EventSpamFilterTest {

    private final MutableClock clock = new MutableClock(TestClocks.START);
    private final EventSpamFilter filter = new EventSpamFilter(3, Duration.ofMinutes(1), clock);
    private final JobId job = new JobId("team-a", "train");

    @Test
    void aBurstPassesThenOnePerInterval() {
        assertThat(sendPending(5)).isEqualTo(3);

        clock.advance(Duration.ofSeconds(30));
        assertThat(sendPending(1)).as("half an interval earns nothing whole").isZero();
        clock.advance(Duration.ofSeconds(30));
        assertThat(sendPending(2)).isEqualTo(1);

        clock.advance(Duration.ofHours(1));
        assertThat(sendPending(5)).as("a quiet hour refills the burst, no more").isEqualTo(3);
    }

    @Test
    void otherReasonsAndOtherJobsHaveTheirOwnAllowance() {
        sendPending(3);

        assertThat(filter.allow(job, "Pending")).isFalse();
        assertThat(filter.allow(job, "Preempted")).isTrue();
        assertThat(filter.allow(new JobId("team-a", "other"), "Pending")).isTrue();
        assertThat(filter.allow(new JobId("team-b", "train"), "Pending")).isTrue();
    }

    private int sendPending(int attempts) {
        int sent = 0;
        for (int i = 0; i < attempts; i++) {
            sent += filter.allow(job, "Pending") ? 1 : 0;
        }
        return sent;
    }
}

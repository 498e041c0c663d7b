package io.quotient.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Await#during}: a condition watched for a while, not only at one moment (no cluster). */
class AwaitTest {

    @Test
    void duringLooksUntilTheDurationIsOverWhileTheConditionHolds() {
        AtomicInteger looks = new AtomicInteger();
        long start = System.nanoTime();

        Await.during("a value to stay positive", Duration.ofMillis(700), looks::incrementAndGet, v -> v > 0);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
        assertThat(looks.get()).as("looked more than once").isGreaterThan(1);
    }

    @Test
    void duringFailsAtTheFirstValueThatBreaksTheCondition() {
        AtomicInteger looks = new AtomicInteger();

        assertThatThrownBy(() -> Await.during(
                        "the count to stay under 3", Duration.ofSeconds(30), looks::incrementAndGet, v -> v < 3))
                .isInstanceOf(AssertionError.class)
                .hasMessage("expected the count to stay under 3 for 30s; got 3");
        assertThat(looks.get()).isEqualTo(3);
    }

    @Test
    void duringLooksOnceForAZeroDuration() {
        AtomicInteger looks = new AtomicInteger();

        Await.during("anything", Duration.ZERO, looks::incrementAndGet, v -> true);

        assertThat(looks.get()).isEqualTo(1);
    }
}

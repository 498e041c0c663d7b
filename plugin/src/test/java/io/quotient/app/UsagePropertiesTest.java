package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UsagePropertiesTest {

    @Test
    void aMaxGapShorterThanOnePersistPeriodIsRefusedSayingWhy() {
        assertThatThrownBy(() ->
                        new UsageProperties(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("quotient.usage.max-gap")
                .hasMessageContaining("restart would lose");
        assertThatThrownBy(() -> new UsageProperties(Duration.ZERO, Duration.ofMinutes(5), Duration.ofSeconds(60)))
                .hasMessageContaining("quotient.usage.interval must be a positive duration");
        assertThatCode(() -> new UsageProperties(Duration.ofSeconds(10), Duration.ofMinutes(5), Duration.ofSeconds(60)))
                .doesNotThrowAnyException();
    }
}

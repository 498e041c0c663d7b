package io.quotient.app;

import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The embedded service on a clock its test moves by hand: a {@link MutableClock} at {@link TestClocks#START}, one
 * per application context, preferred to the service's system clock. A test lists this class in its
 * {@code @SpringBootTest(classes = ...)} and autowires the {@link MutableClock}.
 */
@TestConfiguration
public class MutableClockConfiguration {

    @Bean
    @Primary
    MutableClock testClock() {
        return new MutableClock(TestClocks.START);
    }
}

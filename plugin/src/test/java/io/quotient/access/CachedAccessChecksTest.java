package io.quotient.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachedAccessChecksTest {

    private static final Caller ALICE = new Caller("alice", "1", List.of("team-a"), Map.of());
    private static final AccessRequest CREATE = new AccessRequest("create", "quotient.io", "gpujobs", "team-a", null);

    private final AtomicInteger tokenReviews = new AtomicInteger();
    private final AtomicInteger accessReviews = new AtomicInteger();
    private final MutableClock clock = new MutableClock(TestClocks.START);
    private boolean allowed = true;

    private final Authenticator authenticator = token -> {
        tokenReviews.incrementAndGet();
        return token.equals("good") ? Optional.of(ALICE) : Optional.empty();
    };
    private final Authorizer authorizer = (caller, request) -> {
        accessReviews.incrementAndGet();
        return allowed ? AccessDecision.ALLOWED : new AccessDecision(false, "no binding");
    };

    @Test
    void answersAreReusedForTheTimeToLiveThenAskedAgain() {
        CachedAccessChecks checks = new CachedAccessChecks(authenticator, authorizer, Duration.ofSeconds(10), clock);
        for (int i = 0; i < 100; i++) {
            assertThat(checks.authenticate("good")).contains(ALICE);
            assertThat(checks.authenticate("bad")).isEmpty();
            assertThat(checks.authorize(ALICE, CREATE).allowed()).isTrue();
        }
        assertThat(tokenReviews).hasValue(2);
        assertThat(accessReviews).hasValue(1);

        allowed = false; // the binding is removed: it takes effect once the answer expires
        assertThat(checks.authorize(ALICE, CREATE).allowed()).isTrue();
        clock.advance(Duration.ofSeconds(10));
        assertThat(checks.authorize(ALICE, CREATE)).isEqualTo(new AccessDecision(false, "no binding"));
        assertThat(accessReviews).hasValue(2);
        assertThat(checks.authorize(ALICE, new AccessRequest("delete", "quotient.io", "gpujobs", "team-a", "x"))
                        .allowed())
                .isFalse();
        assertThat(accessReviews).as("another question is asked on its own").hasValue(3);
    }

    @Test
    void aZeroTimeToLiveAsksEveryTime() {
        CachedAccessChecks checks = new CachedAccessChecks(authenticator, authorizer, Duration.ZERO, clock);
        checks.authorize(ALICE, CREATE);
        checks.authorize(ALICE, CREATE);
        assertThat(accessReviews).hasValue(2);
    }
}

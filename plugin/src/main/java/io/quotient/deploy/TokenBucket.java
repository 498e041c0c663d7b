package io.quotient.deploy;

import java.time.Duration;
import java.time.Instant;

/**
 * A token bucket at one moment: up to {@code burst} actions at once, then one more for every {@code perToken} that
 * passes. An immutable value; its holder keeps the latest one (one per job and reason for Events, one for all
 * figure-only reason rewrites).
 *
 * @param tokens actions allowed now (fractions count towards the next one)
 * @param at     when they were counted
 */
public record TokenBucket(double tokens, Instant at) {

    /** A full bucket. */
    public static TokenBucket full(int burst, Instant now) {
        return new TokenBucket(burst, now);
    }

    /** The bucket at {@code now}: the tokens earned since it was counted, up to {@code burst}. */
    public TokenBucket refilled(Instant now, int burst, Duration perToken) {
        double earned = (double) Duration.between(at, now).toMillis() / perToken.toMillis();
        return new TokenBucket(Math.min(burst, tokens + Math.max(0, earned)), now);
    }

    public boolean hasToken() {
        return tokens >= 1;
    }

    /** The bucket with one action taken; call only when {@link #hasToken()}. */
    public TokenBucket take() {
        return new TokenBucket(tokens - 1, at);
    }
}

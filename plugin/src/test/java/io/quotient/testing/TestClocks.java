package io.quotient.testing;

import java.time.Instant;

/** Where tests' hand-moved clocks start: a fixed instant, so that the dates in their expectations hold. */
public final class TestClocks {

    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private TestClocks() {}
}

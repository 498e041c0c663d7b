package io.quotient.enforcer.core;

import java.time.Instant;

/** Whether the last cycle could read the GPUs; readiness and the node report follow it. */
public final class EnforcerHealth {

    public record State(boolean ready, String reason, Instant since) {}

    private volatile State state = new State(false, "no enforcement cycle has run yet", Instant.EPOCH);

    public State state() {
        return state;
    }

    void update(boolean ready, String reason, Instant now) {
        State current = state;
        if (current.ready() != ready || !current.reason().equals(reason)) {
            state = new State(ready, reason, now);
        }
    }
}

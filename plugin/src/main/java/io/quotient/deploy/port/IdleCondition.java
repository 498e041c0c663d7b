package io.quotient.deploy.port;

import java.time.Instant;
import java.util.Objects;

/**
 * The {@code Idle} condition of a job's record: its GPUs stayed under its team's idle threshold since {@code since}.
 *
 * @param reason  {@link #WARNING} (it will be released when someone waits) or {@link #RELEASED} (it was)
 * @param message the decision in a plain sentence, with the numbers (idle since, utilisation, who waits)
 */
public record IdleCondition(String reason, String message, Instant since) {

    /** The condition's type on a GpuJob. */
    public static final String TYPE = "Idle";

    public static final String WARNING = "IdleWarning";
    public static final String RELEASED = "IdleReleased";

    public IdleCondition {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(since, "since");
    }
}

package io.quotient.core.scheduling;

import java.time.Duration;
import java.util.Objects;

/**
 * How fair shares remember past borrowing (the cluster setting {@code fairShare}).
 *
 * @param usageHalfLife how long until a GPU borrowed counts half as much; {@link Duration#ZERO}: no memory, fair
 *                      shares and the borrowing order look only at what teams hold now (the default)
 * @param window        how far back borrowing counts at all; older usage is forgotten whatever the half-life
 */
public record FairShareSettings(Duration usageHalfLife, Duration window) {

    /** No memory: today's instantaneous fair share. */
    public static final FairShareSettings INSTANTANEOUS = new FairShareSettings(Duration.ZERO, Duration.ofDays(7));

    public FairShareSettings {
        Objects.requireNonNull(usageHalfLife, "fairShare.usageHalfLife");
        Objects.requireNonNull(window, "fairShare.window");
        if (usageHalfLife.isNegative()) {
            throw new IllegalArgumentException(
                    "fairShare.usageHalfLife must be 0 (no memory) or a positive duration," + " was " + usageHalfLife);
        }
        if (!usageHalfLife.isZero() && (window.isNegative() || window.isZero())) {
            throw new IllegalArgumentException("fairShare.window must be a positive duration when"
                    + " fairShare.usageHalfLife is set, was " + window + " (set it to how far back usage counts,"
                    + " e.g. 7d)");
        }
    }

    /** Whether past borrowing counts at all. */
    public boolean decays() {
        return !usageHalfLife.isZero();
    }
}

package io.quotient.core.scheduling;

import java.util.Objects;

/**
 * A team's quota in milli-GPU (fractions count).
 *
 * @param maxMilli        hard ceiling on everything the team holds; {@link #UNLIMITED} when none
 * @param overQuotaWeight the team's share of idle capacity relative to other borrowing teams
 * @param priority        idle capacity goes to higher-priority teams first, then by weight
 */
public record Team(String name, long guaranteedMilli, long maxMilli, double overQuotaWeight, int priority) {

    public static final long UNLIMITED = Long.MAX_VALUE;

    public Team {
        Objects.requireNonNull(name, "team name");
        if (guaranteedMilli < 0) {
            throw new IllegalArgumentException("team " + name + ": guaranteedGpus must not be negative");
        }
        if (maxMilli < guaranteedMilli) {
            throw new IllegalArgumentException("team " + name + ": maxGpus (" + maxMilli / 1000.0
                    + ") is below guaranteedGpus (" + guaranteedMilli / 1000.0 + ")");
        }
        if (!(overQuotaWeight >= 0) || Double.isInfinite(overQuotaWeight)) {
            throw new IllegalArgumentException("team " + name + ": overQuotaWeight must be a finite number >= 0");
        }
    }

    public static Team of(String name, double guaranteedGpus) {
        return new Team(name, Math.round(guaranteedGpus * 1000), UNLIMITED, 1.0, 0);
    }

    public boolean hasMax() {
        return maxMilli != UNLIMITED;
    }
}

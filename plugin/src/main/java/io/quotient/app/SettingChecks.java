package io.quotient.app;

import java.time.Duration;

/**
 * The checks every setting of the service's kind gets when it is bound, so that a value no schedule or timer can
 * use stops the start with the property's name, instead of a scheduler's exception naming none, a loop that spins,
 * or a setting silently read as "never".
 */
public final class SettingChecks {

    /** Longer than any period or grace the service uses, and far short of where milli- or nanosecond sums overflow. */
    static final Duration LONGEST = Duration.ofDays(365);

    private SettingChecks() {}

    /** A period: more than zero, at most {@link #LONGEST}. */
    public static void positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be a positive duration, got " + value);
        }
        atMostLongest(property, value);
    }

    /** A grace or a bound: zero or more, at most {@link #LONGEST}. */
    public static void notNegative(String property, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(property + " must be 0 or a positive duration, got " + value);
        }
        atMostLongest(property, value);
    }

    /** A finite number from {@code min} to {@code max}. */
    public static void within(String property, double value, double min, double max) {
        if (!Double.isFinite(value) || value < min || value > max) {
            throw new IllegalArgumentException(
                    property + " must be a number from " + min + " to " + max + ", got " + value);
        }
    }

    private static void atMostLongest(String property, Duration value) {
        if (value.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(property + " must be at most " + LONGEST.toDays() + " days, got " + value
                    + "; a longer period is never reached");
        }
    }
}

package io.quotient.enforcer.core;

import java.util.Locale;

/** Human-readable byte counts for messages and events. */
public final class ByteSizes {

    private ByteSizes() {}

    public static String format(long bytes) {
        if (bytes < 1L << 20) {
            return bytes + " B";
        }
        if (bytes < 1L << 30) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }
}

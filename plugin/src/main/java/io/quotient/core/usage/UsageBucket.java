package io.quotient.core.usage;

/** How showback over time is cut: one row per group and UTC hour, or per group and UTC day. */
public enum UsageBucket {
    HOUR,
    DAY;

    /** The bucket named in a request ({@code hour} or {@code day}, any case). */
    public static UsageBucket parse(String value) {
        return RequestedChoice.parse(
                values(), "bucket", "bucket", value, " (or leave it out for one row per group over the whole range)");
    }
}

package io.quotient.core.usage;

import io.quotient.core.request.RequestException;

/** How showback over time is cut: one row per group and UTC hour, or per group and UTC day. */
public enum UsageBucket {
    HOUR,
    DAY;

    /** The bucket named in a request ({@code hour} or {@code day}, any case). */
    public static UsageBucket parse(String value) {
        for (UsageBucket b : values()) {
            if (b.name().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return b;
            }
        }
        throw new RequestException(
                "bucket",
                "'" + UsageGrouping.excerpt(value) + "' is not a bucket; use hour or day (or leave it out"
                        + " for one row per group over the whole range)");
    }
}

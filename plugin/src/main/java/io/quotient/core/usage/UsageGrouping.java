package io.quotient.core.usage;

/** How showback rows are grouped. */
public enum UsageGrouping {
    TEAM,
    JOB,
    DEPARTMENT;

    /** The grouping named in a request ({@code team}, {@code job}, {@code department}, any case). */
    public static UsageGrouping parse(String value) {
        return RequestedChoice.parse(values(), "groupBy", "grouping", value, "");
    }

    /** A request value quoted back in an error, cut at 40 characters: an answer never echoes a whole payload. */
    public static String excerpt(String value) {
        return value == null ? "" : value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}

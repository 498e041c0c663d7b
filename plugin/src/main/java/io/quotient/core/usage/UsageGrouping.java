package io.quotient.core.usage;

import io.quotient.core.request.RequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How showback rows are grouped. */
public enum UsageGrouping {
    TEAM,
    JOB,
    DEPARTMENT;

    /** The grouping named in a request ({@code team}, {@code job}, {@code department}, any case). */
    public static UsageGrouping parse(String value) {
        for (UsageGrouping g : values()) {
            if (g.name().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return g;
            }
        }
        throw new RequestException(
                "groupBy",
                "'" + excerpt(value) + "' is not a grouping; use one of "
                        + Arrays.stream(values())
                                .map(g -> g.name().toLowerCase(Locale.ROOT))
                                .collect(Collectors.joining(", ")));
    }

    /** A request value quoted back in an error, cut at 40 characters: an answer never echoes a whole payload. */
    public static String excerpt(String value) {
        return value == null ? "" : value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}

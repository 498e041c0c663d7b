package io.quotient.core.model;

/**
 * How a value names one of a fixed set of wire names (a job's kind, an idle action, a showback grouping): the name
 * itself in any mix of ASCII upper and lower case, and nothing else. No spaces or control characters around it are
 * dropped, and no other alphabet's letters count as the name's (a dotless {@code ı} is not an {@code i}, the Kelvin
 * sign not a {@code k}), so a request that differs from every name in a way the reader cannot see is refused rather
 * than read as one of them.
 */
public final class WireName {

    private WireName() {}

    /** Whether {@code text} names {@code wireName} (printable ASCII letters, compared ignoring their case). */
    public static boolean matches(String wireName, String text) {
        if (text == null || text.length() != wireName.length()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c > '~') {
                return false;
            }
        }
        return wireName.equalsIgnoreCase(text);
    }
}

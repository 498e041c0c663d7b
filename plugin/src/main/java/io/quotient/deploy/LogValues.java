package io.quotient.deploy;

/**
 * Makes a value a user supplied (a path segment, a template name, a label, a reason quoting them) safe to write into
 * one log line or the log context: control characters are shown as escapes ({@code \n}, {@code \r}, {@code \t},
 * {@code \u0000}), so a request cannot end a log line and write lines of its choosing, and a backslash is doubled, so
 * an escape written by the user cannot pass for one made here. Very long values are cut, saying how much was left out.
 */
public final class LogValues {

    /** Longer values are cut: a log line shows what was wrong, it does not keep a 10 MB body. */
    public static final int MAX_LENGTH = 512;

    private LogValues() {}

    /** The value on one line with control characters visible; {@code "null"} for null. */
    public static String escape(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value.toString();
        int shown = Math.min(text.length(), MAX_LENGTH);
        StringBuilder sb = new StringBuilder(shown + 16);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        if (shown < text.length()) {
            sb.append("...(").append(text.length() - shown).append(" more characters)");
        }
        return sb.toString();
    }
}

package io.quotient.adapters.quota;

/**
 * A configuration file that cannot be used: names the file, the line (1-based, 0 when unknown) and the reason.
 * Whoever loads the file keeps the last good configuration in force.
 */
public final class ConfigFileException extends RuntimeException {

    private final String source;
    private final int line;
    private final String reason;

    public ConfigFileException(String source, int line, String reason) {
        super(source + (line > 0 ? ":" + line : "") + ": " + reason);
        this.source = source;
        this.line = line;
        this.reason = reason;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}

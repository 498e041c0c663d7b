package io.quotient.sim;

import java.nio.file.Path;

/** A trace file that cannot be read as the openb format; the message names file, line and column. */
public final class TraceFormatException extends RuntimeException {

    public TraceFormatException(Path file, int line, int column, String problem) {
        super(file + ":" + line + ":" + column + ": " + problem);
    }

    public TraceFormatException(Path file, String problem) {
        super(file + ": " + problem);
    }
}

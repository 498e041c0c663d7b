package io.quotient.adapters.rest;

import java.io.IOException;

/**
 * A request body whose bytes are not JSON text in UTF-8, found while it is read ({@link BodySizeFilter}): a NUL byte,
 * which JSON text never has (inside a string it is escaped) but the JSON reader takes for the end of the input
 * ({@code {"name":"a"}<NUL>{"name":"b"}} was read as its first object and the rest dropped); or a byte sequence UTF-8
 * does not allow, which the JSON reader decodes leniently (the overlong {@code C0 AF} became a '/', {@code C0 80} a
 * NUL, past every check of the decoded text). An {@link IOException}, so that it ends the reading wherever the reader
 * is; {@link RestErrors} answers it 400.
 */
public final class MalformedBodyException extends IOException {

    private final long offset;
    private final String problem;
    private final String why;

    /**
     * @param offset  where the offending byte is, counted from 0
     * @param problem what is there, completing "the body has …": "a NUL byte"
     * @param why     why that cannot be read, completing the sentence: ", which JSON text never has"
     */
    public MalformedBodyException(long offset, String problem, String why) {
        super("the request body has " + problem + " at byte " + offset + why);
        this.offset = offset;
        this.problem = problem;
        this.why = why;
    }

    /** The answer's reason: what is where, and why it cannot be read. */
    public String reason() {
        return "the body has " + problem + " (at byte " + offset + ")" + why;
    }

    /** Where the offending byte is, counted from 0. */
    public long offset() {
        return offset;
    }
}

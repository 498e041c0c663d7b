package io.quotient.adapters.rest;

import java.io.IOException;

/**
 * A UTF-8 request body with a NUL byte. JSON text never has one (inside a string it is escaped), but
 * the JSON reader takes it for the end of the input: {@code {"name":"a"}<NUL>{"name":"b"}} was read as its first
 * object and the rest dropped, which the refusal of trailing data exists to prevent. An {@link IOException}, so that
 * it ends the reading wherever the reader is; {@link RestErrors} answers it 400.
 */
public final class BodyNulException extends IOException {

    private final long offset;

    public BodyNulException(long offset) {
        super("the request body has a NUL byte at offset " + offset);
        this.offset = offset;
    }

    /** Where the first NUL byte is, counted from 0. */
    public long offset() {
        return offset;
    }
}

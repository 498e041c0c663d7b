package io.quotient.adapters.rest;

import java.io.IOException;

/**
 * A request body longer than the service reads ({@code quotient.api.max-body-bytes}). An {@link IOException}, so that
 * it ends the reading of a streamed (chunked) body wherever the reader is; {@link RestErrors} answers it 413.
 */
public final class BodyTooLargeException extends IOException {

    private final long limit;

    public BodyTooLargeException(long limit) {
        super("the request body is longer than " + limit + " bytes");
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }
}

package io.quotient.core.request;

/** A request that cannot be accepted as written: names the field and the reason, nothing is changed. */
public final class RequestException extends RuntimeException {

    private final String field;

    public RequestException(String field, String reason) {
        super(field + ": " + reason);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

package io.quotient.access;

/** Authentication or authorization could not be checked (the API server did not answer): the call is refused. */
public final class AccessCheckUnavailableException extends RuntimeException {

    public AccessCheckUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.quotient.adapters.k8s;

/** A call to the Kubernetes API server failed in a way the caller cannot handle; says what was attempted and why. */
public final class KubernetesCallException extends RuntimeException {

    private final int httpStatus;

    public KubernetesCallException(String message, int httpStatus) {
        super(message);
        this.httpStatus = httpStatus;
    }

    public KubernetesCallException(String message, Throwable cause) {
        super(message, cause);
        this.httpStatus = 0;
    }

    /** The HTTP status the API server answered, 0 when it could not be reached. */
    public int httpStatus() {
        return httpStatus;
    }
}

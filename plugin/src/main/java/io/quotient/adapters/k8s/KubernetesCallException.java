package io.quotient.adapters.k8s;

/**
 * The Kubernetes API server answered a call with an error the caller cannot handle; says what was attempted and
 * why. A call that got no answer at all is a {@link KubernetesUnreachableException}.
 */
public final class KubernetesCallException extends RuntimeException {

    private final int httpStatus;

    public KubernetesCallException(String message, int httpStatus) {
        super(message);
        this.httpStatus = httpStatus;
    }

    /** The HTTP status the API server answered. */
    public int httpStatus() {
        return httpStatus;
    }
}

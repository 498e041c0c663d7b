package io.quotient.adapters.k8s;

import io.quotient.deploy.port.ClusterUnreachableException;

/** A call to the Kubernetes API server got no answer (connection refused, reset, timed out); says what was tried. */
public final class KubernetesUnreachableException extends ClusterUnreachableException {

    public KubernetesUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}

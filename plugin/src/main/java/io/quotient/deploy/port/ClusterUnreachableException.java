package io.quotient.deploy.port;

/**
 * The cluster's API server could not be reached while a request was being carried out: part of it may have been
 * done (a workload stopped, its record not yet deleted). Every use case is safe to repeat, so the caller is told to
 * send the request again, not that the service failed.
 */
public class ClusterUnreachableException extends RuntimeException {

    public ClusterUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}

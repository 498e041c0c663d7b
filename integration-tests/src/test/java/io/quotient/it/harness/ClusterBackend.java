package io.quotient.it.harness;

import java.nio.file.Path;

/** A running Kubernetes API server the tests can reach, and how to stop it. */
interface ClusterBackend {

    /** Short name for logs and reports, e.g. "local control plane (Kubernetes 1.20)". */
    String description();

    /** A kubeconfig file with admin credentials. */
    Path kubeconfig();

    /** Stops what this backend started (a no-op where the plane is kept for reuse). */
    void stop();

    /**
     * Stops one component (SIGKILL, or SIGTERM when {@code kill} is false), starts it again as it was and returns once
     * it is healthy; returns its new PID. Only a plane whose processes the harness started can do this.
     */
    default long restart(PlaneComponent component, boolean kill) {
        throw new UnsupportedOperationException(
                description() + " cannot restart its " + component.processName()
                        + ": only the local control plane (-Dquotient.it.backend=local) runs its components as processes of its own");
    }
}

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
}

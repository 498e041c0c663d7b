package io.quotient.app.kubernetes;

import io.quotient.app.KubeconfigDiscovery.Kubeconfig;
import java.util.Optional;

/** The kubeconfig the clients are built from; empty inside a pod (its service account). */
record KubeconfigSource(Optional<Kubeconfig> file) {}

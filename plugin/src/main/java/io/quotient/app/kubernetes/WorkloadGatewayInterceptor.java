package io.quotient.app.kubernetes;

import io.quotient.adapters.k8s.workloads.KubernetesWorkloadGateway;
import io.quotient.deploy.port.WorkloadGateway;

/**
 * An optional wrapper around the Kubernetes workload gateway, applied when a bean of this type exists. Production
 * defines none; the integration tests contribute one from their own classpath (a crash point that SIGKILLs the
 * process at a chosen API call), so that fault-injection code never ships in the service's jar.
 */
@FunctionalInterface
public interface WorkloadGatewayInterceptor {

    /** The gateway the service uses in place of {@code real}. */
    WorkloadGateway around(KubernetesWorkloadGateway real);
}

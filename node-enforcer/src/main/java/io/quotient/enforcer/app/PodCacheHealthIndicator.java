package io.quotient.enforcer.app;

import io.quotient.enforcer.k8s.NodePodCache;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Not ready until this node's pods are known: before that no process can be matched to its budget. */
final class PodCacheHealthIndicator implements HealthIndicator {

    private final NodePodCache pods;

    PodCacheHealthIndicator(NodePodCache pods) {
        this.pods = pods;
    }

    @Override
    public Health health() {
        return pods.synced()
                ? Health.up().withDetail("pods", pods.all().size()).build()
                : Health.down()
                        .withDetail("reason", "the node's pods have not been listed from the API server yet")
                        .build();
    }
}

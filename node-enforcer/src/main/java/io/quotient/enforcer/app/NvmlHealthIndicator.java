package io.quotient.enforcer.app;

import io.quotient.enforcer.core.EnforcerHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Readiness follows NVML: a node whose GPUs cannot be read is not ready, so the deployer places no new
 * fractions there (the node report says the same).
 */
final class NvmlHealthIndicator implements HealthIndicator {

    private final EnforcerHealth health;

    NvmlHealthIndicator(EnforcerHealth health) {
        this.health = health;
    }

    @Override
    public Health health() {
        EnforcerHealth.State state = health.state();
        Health.Builder builder = state.ready() ? Health.up() : Health.down().withDetail("reason", state.reason());
        return builder.withDetail("since", state.since().toString()).build();
    }
}

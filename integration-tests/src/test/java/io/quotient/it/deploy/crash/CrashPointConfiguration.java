package io.quotient.it.deploy.crash;

import io.quotient.app.kubernetes.WorkloadGatewayInterceptor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Registers the crash point named by {@code --quotient.kubernetes.testing-crash-at} in a service started on the
 * integration tests' classpath ({@code CrashSafetyIT}). An auto-configuration listed in this module's test resources,
 * so the service's own jar knows no crash points; without the property it defines nothing.
 */
@AutoConfiguration
@ConditionalOnProperty(CrashPointConfiguration.PROPERTY)
public class CrashPointConfiguration {

    static final String PROPERTY = "quotient.kubernetes.testing-crash-at";

    @Bean
    WorkloadGatewayInterceptor crashPoint(Environment environment) {
        return CrashPoint.parse(environment.getRequiredProperty(PROPERTY));
    }
}

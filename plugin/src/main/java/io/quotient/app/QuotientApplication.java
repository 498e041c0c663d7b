package io.quotient.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The {@code serve} application: the REST API, the periodic jobs and the cluster mode's adapters. Scans the
 * wiring ({@code io.quotient.app}) and the REST controllers; everything else is built by configuration classes.
 */
@SpringBootApplication(scanBasePackages = {"io.quotient.app", "io.quotient.adapters.rest"})
@EnableConfigurationProperties(QuotientProperties.class)
public class QuotientApplication {}

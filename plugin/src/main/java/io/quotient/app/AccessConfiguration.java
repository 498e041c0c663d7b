package io.quotient.app;

import io.quotient.access.AccessChecks;
import io.quotient.access.CachedAccessChecks;
import io.quotient.adapters.k8s.KubernetesAccessReview;
import io.quotient.adapters.rest.AccessFilter;
import io.quotient.adapters.rest.JsonRefusal;
import io.quotient.adapters.rest.TeamAccessInterceptor;
import io.quotient.deploy.DeploymentService;
import io.quotient.deploy.JobNotFoundException;
import io.quotient.deploy.TeamNotFoundException;
import io.quotient.deploy.port.TeamsSource;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Authentication and authorization of every call (but the probes): by the cluster's API server in Kubernetes mode,
 * open on the embedded demo. One start-up line says which.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccessProperties.class)
public class AccessConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(AccessConfiguration.class);

    @Bean
    AccessChecks accessChecks(
            AccessProperties properties,
            Environment environment,
            ObjectProvider<KubernetesAccessReview> kubernetes,
            Clock clock) {
        ClusterMode cluster = ClusterMode.resolve(environment);
        AccessProperties.Mode mode = properties.mode() != AccessProperties.Mode.AUTO
                ? properties.mode()
                : cluster == ClusterMode.KUBERNETES ? AccessProperties.Mode.KUBERNETES : AccessProperties.Mode.OPEN;
        if (mode == AccessProperties.Mode.OPEN) {
            LOG.warn(
                    "access: OPEN, no authentication: anyone who reaches this port may deploy and delete any team's"
                            + " jobs{}",
                    cluster == ClusterMode.EMBEDDED ? " (embedded demo)" : " (quotient.access.mode=open)");
            return AccessChecks.open();
        }
        KubernetesAccessReview review = kubernetes.getIfAvailable();
        if (review == null) {
            throw new IllegalStateException(
                    "quotient.access.mode=kubernetes needs a Kubernetes cluster to review tokens,"
                            + " but the service runs on the embedded cluster; give --quotient.kubeconfig or use"
                            + " quotient.access.mode=open");
        }
        LOG.info(
                "access: bearer tokens reviewed by the API server (TokenReview), calls on a team's jobs authorised by"
                        + " SubjectAccessReview on gpujobs.quotient.io in its namespace; answers cached {}",
                properties.cacheTtl());
        CachedAccessChecks cached = new CachedAccessChecks(review, review, properties.cacheTtl(), clock);
        return new AccessChecks(cached, cached);
    }

    /** Before every other filter and servlet but the path check: the API, the OpenAPI description and any page. */
    @Bean
    FilterRegistrationBean<AccessFilter> accessFilter(AccessChecks checks, JsonRefusal refusal) {
        FilterRegistrationBean<AccessFilter> registration =
                new FilterRegistrationBean<>(new AccessFilter(checks, refusal));
        registration.addUrlPatterns("/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** Authorization on the resolved route, before any handler runs (and before the request's log context). */
    @Bean
    WebMvcConfigurer teamAccess(
            AccessChecks checks, TeamsSource teams, DeploymentService deployments, JsonRefusal refusal) {
        TeamAccessInterceptor interceptor = new TeamAccessInterceptor(
                checks,
                teams,
                job -> {
                    try {
                        return Optional.ofNullable(
                                deployments.get(job).submission().pod().namespace());
                    } catch (JobNotFoundException | TeamNotFoundException e) {
                        return Optional.empty();
                    }
                },
                refusal);
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(interceptor).order(Ordered.HIGHEST_PRECEDENCE);
            }
        };
    }
}

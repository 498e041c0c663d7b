package io.quotient.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.adapters.rest.BodilessErrorFilter;
import io.quotient.adapters.rest.BodilessMethodFilter;
import io.quotient.adapters.rest.CanonicalPathFilter;
import io.quotient.adapters.rest.CorsPreflightFilter;
import io.quotient.adapters.rest.JsonErrorReportValve;
import io.quotient.adapters.rest.JsonRefusal;
import io.quotient.adapters.rest.PageQueryFilter;
import io.quotient.adapters.rest.SecurityHeadersFilter;
import io.quotient.adapters.rest.TraceRefusalFilter;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * What every request meets before the API: only canonical paths are served, every answer carries the browser
 * security headers, and the servlet container's own refusals answer in the API's JSON error shape.
 */
@Configuration(proxyBeanMethods = false)
public class HttpHardeningConfiguration {

    @Bean
    JsonRefusal jsonRefusal(ObjectMapper json) {
        return new JsonRefusal(json);
    }

    /** First of all filters: a path spelt any other way than canonically is refused before anything reads it. */
    @Bean
    FilterRegistrationBean<CanonicalPathFilter> canonicalPathFilter(JsonRefusal refusal) {
        return FilterRegistrations.onEveryPath(new CanonicalPathFilter(refusal), Ordered.HIGHEST_PRECEDENCE + 1);
    }

    /** Before the path check, so that its refusals carry the headers too. */
    @Bean
    FilterRegistrationBean<SecurityHeadersFilter> securityHeadersFilter() {
        return FilterRegistrations.onEveryPath(new SecurityHeadersFilter(), Ordered.HIGHEST_PRECEDENCE);
    }

    /**
     * TRACE reaches the filters (Tomcat refused it itself, with no body or security headers) and is answered there,
     * before any servlet could echo it ({@link TraceRefusalFilter}); after the security headers, before the path check.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> traceReachesTheFilters() {
        return factory -> factory.addConnectorCustomizers(connector -> {
            connector.setAllowTrace(true);
            // "100 Continue" only once a body is read: sent at once, it invited a client to send a body the size
            // check then refused unread (413 on its Content-Length)
            connector.setProperty("continueResponseTiming", "onRead");
        });
    }

    /**
     * The bodiless client errors of the actuator and the pages answered with the JSON body ({@link
     * BodilessErrorFilter}; the API's own paths are left to their handlers).
     */
    @Bean
    FilterRegistrationBean<BodilessErrorFilter> bodilessErrorBodies() {
        FilterRegistrationBean<BodilessErrorFilter> registration =
                new FilterRegistrationBean<>(new BodilessErrorFilter());
        registration.addUrlPatterns("/*");
        // after the access filter (+10) and the body size check (+20), whose refusals set their status and then
        // write their own body and WWW-Authenticate: wrapped, the 401 of /actuator/metrics became a bare error
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 30);
        return registration;
    }

    /**
     * A body on GET, HEAD, DELETE or OPTIONS is refused ({@link BodilessMethodFilter}): after the access filter (+10),
     * so that a caller without access is told so first, and before the body size check (+20) and any handler.
     */
    @Bean
    FilterRegistrationBean<BodilessMethodFilter> bodilessMethodFilter(JsonRefusal refusal) {
        return FilterRegistrations.onEveryPath(new BodilessMethodFilter(refusal), Ordered.HIGHEST_PRECEDENCE + 15);
    }

    /**
     * The pages' and the actuator's query parameters checked as the API's routes are ({@link PageQueryFilter}): after
     * the access filter (+10), which guards the actuator's metrics, and before the bodiless errors (+30).
     */
    @Bean
    FilterRegistrationBean<PageQueryFilter> pageQueryFilter(JsonRefusal refusal) {
        return FilterRegistrations.onEveryPath(new PageQueryFilter(refusal), Ordered.HIGHEST_PRECEDENCE + 25);
    }

    /** A browser's CORS preflight is refused in JSON ({@link CorsPreflightFilter}); with TRACE, before the path check. */
    @Bean
    FilterRegistrationBean<CorsPreflightFilter> corsPreflightFilter(JsonRefusal refusal) {
        return FilterRegistrations.onEveryPath(new CorsPreflightFilter(refusal), Ordered.HIGHEST_PRECEDENCE + 1);
    }

    @Bean
    FilterRegistrationBean<TraceRefusalFilter> traceRefusalFilter(JsonRefusal refusal) {
        return FilterRegistrations.onEveryPath(new TraceRefusalFilter(refusal), Ordered.HIGHEST_PRECEDENCE + 1);
    }

    /**
     * Tomcat's HTML error valve (which Spring Boot adds to the host) is removed and the host told to add
     * {@link JsonErrorReportValve} instead; ordered last so that Boot's own customizer has added its valve first.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonContainerErrors() {
        return factory -> factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            // the host adds a valve of this class when it starts (and then none of its own HTML one)
            host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
        });
    }
}

package io.quotient.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.adapters.rest.BodySizeFilter;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Limits of the REST API's requests (quotient.api.*). */
@Configuration(proxyBeanMethods = false)
public class ApiConfiguration {

    /** Bodies longer than quotient.api.max-body-bytes are refused (413) before anything reads them whole. */
    @Bean
    FilterRegistrationBean<BodySizeFilter> bodySizeFilter(QuotientProperties properties, ObjectMapper json) {
        FilterRegistrationBean<BodySizeFilter> registration =
                new FilterRegistrationBean<>(new BodySizeFilter(properties.api().maxBodyBytes(), json));
        registration.addUrlPatterns("/api/*");
        // after the access filter: a caller without access is told so whatever the body
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        return registration;
    }
}

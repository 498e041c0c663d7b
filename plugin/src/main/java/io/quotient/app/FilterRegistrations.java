package io.quotient.app;

import jakarta.servlet.Filter;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** The registration of a filter that meets every request, at its place in the order of the service's filters. */
final class FilterRegistrations {

    private FilterRegistrations() {}

    static <F extends Filter> FilterRegistrationBean<F> onEveryPath(F filter, int order) {
        FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
        registration.addUrlPatterns("/*");
        registration.setOrder(order);
        return registration;
    }
}

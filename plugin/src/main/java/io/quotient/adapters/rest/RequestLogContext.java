package io.quotient.adapters.rest;

import io.quotient.deploy.LogValues;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.slf4j.MDC;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts the team and job of a request into the log context, so every log line of the request names them. */
@Configuration(proxyBeanMethods = false)
public class RequestLogContext implements WebMvcConfigurer, HandlerInterceptor {

    private static final String TEAM = "team";
    private static final String JOB = "job";

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Object vars = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        if (vars instanceof Map<?, ?> map) {
            put(TEAM, map.get("team"));
            put(JOB, map.get("name"));
        }
        return true;
    }

    @Override
    public void afterCompletion(
            HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        MDC.remove(TEAM);
        MDC.remove(JOB);
    }

    private static void put(String key, Object value) {
        if (value != null) {
            // the path segment is the user's, decoded: "%0A" must not end the line every log line of the request starts
            MDC.put(key, LogValues.escape(value));
        }
    }
}

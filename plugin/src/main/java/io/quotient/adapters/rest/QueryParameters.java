package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses a query parameter the route does not take (400 naming it), as unknown body fields are refused: a
 * misspelt {@code ?groupby=job} or {@code ?frm=2026-01-01} would otherwise be dropped in silence and answered with
 * the defaults, a figure the caller did not ask for. Only the query string counts (a form body is the Content-Type's
 * matter, answered 415), and the check runs after authorization, so it tells no unauthorised caller anything.
 */
@Configuration(proxyBeanMethods = false)
public class QueryParameters implements WebMvcConfigurer, HandlerInterceptor {

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String query = request.getQueryString();
        if (query == null || query.isEmpty() || !(handler instanceof HandlerMethod method)) {
            return true;
        }
        Set<String> taken = taken(method);
        if (taken == null) {
            return true;
        }
        for (String pair : query.split("&")) {
            String name = name(pair);
            if (!name.isEmpty() && !taken.contains(name)) {
                throw new RequestException(
                        name,
                        "is not a query parameter of this path; it takes "
                                + (taken.isEmpty() ? "none" : String.join(", ", taken)));
            }
        }
        return true;
    }

    /**
     * The names of the handler's {@code @RequestParam}s, as a request spells them; null when it takes every parameter
     * (a {@code @RequestParam Map}), so that such a handler is not refused what it reads.
     */
    private static Set<String> taken(HandlerMethod method) {
        Set<String> names = new TreeSet<>();
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param == null) {
                continue;
            }
            if (Map.class.isAssignableFrom(parameter.getParameterType())) {
                return null;
            }
            if (!param.name().isEmpty()) {
                names.add(param.name());
            } else {
                MethodParameter named = new MethodParameter(parameter);
                named.initParameterNameDiscovery(NAMES);
                names.add(String.valueOf(named.getParameterName()));
            }
        }
        return names;
    }

    /** The decoded name of one {@code name=value} pair; the raw name where it is not valid percent-encoding. */
    private static String name(String pair) {
        int equals = pair.indexOf('=');
        String raw = equals < 0 ? pair : pair.substring(0, equals);
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }
}

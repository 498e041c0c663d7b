package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import io.quotient.deploy.LogValues;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
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
 * the defaults, a figure the caller did not ask for. For the same reason a parameter given twice ({@code
 * ?events=5&events=6}: which one counts?), given empty ({@code ?events=}, which the binding reads as left out),
 * without a name ({@code ?=5}) or with invalid percent-encoding ({@code ?groupBy=%zzjob}, which the container drops) is
 * refused, and a number must be written in ASCII digits, with at most a leading '-' (the binding trims spaces and
 * line breaks and reads '+5', '0x5' and other scripts' digits such as '５' as 5). Only the query string counts (a form
 * body is the Content-Type's matter, answered 415), and the check runs after authorization, so it tells no
 * unauthorised caller anything.
 */
@Configuration(proxyBeanMethods = false)
public class QueryParameters implements WebMvcConfigurer, HandlerInterceptor {

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();
    private static final Set<Class<?>> WHOLE_NUMBERS =
            Set.of(int.class, Integer.class, long.class, Long.class, short.class, Short.class);
    private static final Pattern ASCII_WHOLE_NUMBER = Pattern.compile("-?[0-9]{1,19}");
    private static final Pattern ASCII_DIGITS = Pattern.compile("-?[0-9]+");

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
        Map<String, Class<?>> taken = taken(method);
        if (taken != null) {
            check(query, taken, Set.of());
        }
        return true;
    }

    /**
     * Checks a query string against the parameters a path takes (by name, with their types: a whole number's value is
     * checked as one); {@code repeatable} names those that may be given more than once (the actuator's {@code tag}).
     * Shared by the API's routes and by the pages and the actuator ({@link PageQueryFilter}).
     *
     * @throws RequestException naming the parameter ({@code query} for a parameter without a name)
     */
    static void check(String query, Map<String, Class<?>> taken, Set<String> repeatable) {
        Set<String> given = new HashSet<>();
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = decoded("query", equals < 0 ? pair : pair.substring(0, equals));
            if (name.isEmpty()) {
                if (equals < 0) {
                    continue; // "a&&b" or a trailing '&' separates nothing
                }
                throw new RequestException("query", "has a parameter without a name ('=' first); name every parameter");
            }
            if (!taken.containsKey(name)) {
                throw new RequestException(
                        name,
                        "is not a query parameter of this path; it takes "
                                + (taken.isEmpty() ? "none" : String.join(", ", new TreeMap<>(taken).keySet())));
            }
            if (!given.add(name) && !repeatable.contains(name)) {
                throw new RequestException(name, "is given twice; give each query parameter once");
            }
            String value = equals < 0 ? "" : decoded(name, pair.substring(equals + 1));
            if (value.isEmpty()) {
                throw new RequestException(name, "is given without a value; give a value or leave the parameter out");
            }
            if (WHOLE_NUMBERS.contains(taken.get(name))) {
                checkWholeNumber(name, value);
            }
        }
    }

    /**
     * The names of the handler's {@code @RequestParam}s, as a request spells them; null when it takes every parameter
     * (a {@code @RequestParam Map}), so that such a handler is not refused what it reads.
     */
    private static Map<String, Class<?>> taken(HandlerMethod method) {
        Map<String, Class<?>> names = new TreeMap<>();
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param == null) {
                continue;
            }
            if (Map.class.isAssignableFrom(parameter.getParameterType())) {
                return null;
            }
            if (!param.name().isEmpty()) {
                names.put(param.name(), parameter.getParameterType());
            } else {
                MethodParameter named = new MethodParameter(parameter);
                named.initParameterNameDiscovery(NAMES);
                names.put(String.valueOf(named.getParameterName()), parameter.getParameterType());
            }
        }
        return names;
    }

    private static void checkWholeNumber(String name, String value) {
        if (ASCII_WHOLE_NUMBER.matcher(value).matches()) {
            return;
        }
        String quoted = LogValues.escape(value.length() > 40 ? value.substring(0, 40) + "..." : value);
        throw new RequestException(
                name,
                ASCII_DIGITS.matcher(value).matches()
                        ? "has more digits than any value it takes (was '" + quoted + "')"
                        : "must be a whole number written in the digits 0-9 (was '" + quoted + "')");
    }

    /**
     * A name or value of the query string decoded. Invalid percent-encoding ({@code %zz}) is refused naming the
     * parameter ({@code query} for a name): the container drops such a parameter, so the route would answer its
     * default as if it had not been given.
     */
    private static String decoded(String field, String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new RequestException(
                    field,
                    "is not valid percent-encoding: '%' must be followed by two hexadecimal digits (write '%25' for"
                            + " a '%' itself)");
        }
    }
}

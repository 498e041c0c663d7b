package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The query check of the API's routes ({@link QueryParameters#check}) for the paths outside the API's controllers: the
 * dashboard's pages and static files, the API description and the actuator, whose handlers are no controller methods
 * the interceptor can read parameters from, and took any query in silence ({@code /index.html?x=1}, {@code
 * /actuator/health?verbose=true}: a caller could believe a parameter was honoured). What each path takes is listed
 * here, from what its handler reads: only a metric takes {@code tag} (any number of times), and the Prometheus scrape
 * {@code includedNames}. Paths not listed (no page, the webhooks) are left to their own answer (404).
 */
public final class PageQueryFilter extends OncePerRequestFilter {

    private static final Map<String, Class<?>> NONE = Map.of();
    private static final Set<String> PAGES =
            Set.of("/", "/index.html", "/dashboard.css", "/dashboard.js", "/usage-panel.js", "/v3/api-docs");

    private final JsonRefusal refusal;

    public PageQueryFilter(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String query = request.getQueryString();
        return query == null || query.isEmpty();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        Map<String, Class<?>> taken = taken(path);
        if (taken != null) {
            try {
                QueryParameters.check(request.getQueryString(), taken, Set.of("tag", "includedNames"));
            } catch (RequestException e) {
                refusal.write(response, HttpStatus.BAD_REQUEST, RestErrors.invalidBody(e));
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The parameters the path takes; null for a path this filter leaves alone (the API's own, or none served). */
    static Map<String, Class<?>> taken(String path) {
        if (PAGES.contains(path)
                || path.equals("/actuator/health")
                || path.startsWith("/actuator/health/")
                || path.equals("/actuator/info")
                || path.equals("/actuator/metrics")) {
            return NONE;
        }
        if (path.startsWith("/actuator/metrics/")) {
            return Map.of("tag", String.class);
        }
        if (path.equals("/actuator/prometheus")) {
            return Map.of("includedNames", String.class);
        }
        return null;
    }
}

package io.quotient.adapters.rest;

import io.quotient.access.AccessCheckUnavailableException;
import io.quotient.access.AccessChecks;
import io.quotient.access.Caller;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates every path of the service (the API, its OpenAPI description, any page) except the health and metrics
 * probes and the admission webhooks: the caller presents {@code Authorization: Bearer <token>}, checked by the
 * authenticator (401 when missing or not accepted). What an authenticated caller may do with a team's jobs is decided
 * after the route is resolved, on the path variables the handler uses ({@link TeamAccessInterceptor}); paths that are
 * not spelt canonically never get this far ({@link CanonicalPathFilter}). With open access checks (the embedded demo)
 * everything passes.
 */
public final class AccessFilter extends OncePerRequestFilter {

    private static final Logger LOG = LoggerFactory.getLogger(AccessFilter.class);
    /** Probes carry no token: kubelets and Prometheus scrape them. */
    private static final Set<String> PROBES = Set.of("/actuator/health", "/actuator/prometheus");

    private static final String BEARER = "Bearer ";
    static final String HINT_TOKEN = "send 'Authorization: Bearer <token>' with a token the cluster accepts"
            + " (kubectl create token <service-account> -n <namespace>, or your OIDC id token)";
    /** The authenticated caller, for handlers that want to name them. */
    public static final String CALLER_ATTRIBUTE = AccessFilter.class.getName() + ".caller";

    private final AccessChecks checks;
    private final JsonRefusal refusal;

    public AccessFilter(AccessChecks checks, JsonRefusal refusal) {
        this.checks = checks;
        this.refusal = refusal;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = path(request);
        // the admission webhooks are called by the API server, which presents no token; they only answer
        return checks.isOpen()
                || PROBES.contains(path)
                || path.startsWith("/actuator/health/")
                || path.startsWith(AdmissionController.PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (Collections.list(request.getHeaders("Authorization")).size() > 1) {
            // the service reads the first line, a proxy in front of it may read the last: two callers in one request
            refusal.write(
                    response,
                    HttpStatus.BAD_REQUEST,
                    new ErrorBody(
                            "invalid request",
                            "Authorization",
                            "Authorization is given more than once; a request carries one credential",
                            "send one 'Authorization: Bearer <token>' line; nothing was changed"));
            return;
        }
        String header = request.getHeader("Authorization");
        if (header == null
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            refusal.write(
                    response,
                    HttpStatus.UNAUTHORIZED,
                    new ErrorBody("unauthenticated", null, "the request carries no bearer token", HINT_TOKEN));
            return;
        }
        try {
            Optional<Caller> caller = checks.authenticator()
                    .authenticate(header.substring(BEARER.length()).trim());
            if (caller.isEmpty()) {
                refusal.write(
                        response,
                        HttpStatus.UNAUTHORIZED,
                        new ErrorBody(
                                "unauthenticated",
                                null,
                                "the cluster did not" + " accept the bearer token (expired, revoked or unknown)",
                                HINT_TOKEN));
                return;
            }
            request.setAttribute(CALLER_ATTRIBUTE, caller.get());
        } catch (AccessCheckUnavailableException e) {
            LOG.warn("access could not be checked: {}", e.getMessage());
            refusal.write(
                    response,
                    HttpStatus.SERVICE_UNAVAILABLE,
                    new ErrorBody(
                            "access check unavailable",
                            null,
                            e.getMessage(),
                            "retry in a moment; nothing was changed"));
            return;
        }
        chain.doFilter(request, response);
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}

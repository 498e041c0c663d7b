package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.access.AccessCheckUnavailableException;
import io.quotient.access.AccessChecks;
import io.quotient.access.AccessDecision;
import io.quotient.access.AccessRequest;
import io.quotient.access.Caller;
import io.quotient.access.JobAccess;
import io.quotient.core.scheduling.JobId;
import io.quotient.deploy.port.TeamsSource;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Guards every path of the service (the API, its OpenAPI description, any page) except the health and metrics
 * probes: the caller presents {@code Authorization: Bearer <token>}; the token is checked by the authenticator (401
 * when missing or not accepted) and each call on a team's jobs by the authorizer (403 naming the verb, resource and
 * namespace refused). Other paths need an authenticated caller only. With open access checks (the embedded demo)
 * everything passes.
 */
public final class AccessFilter extends OncePerRequestFilter {

    private static final Logger LOG = LoggerFactory.getLogger(AccessFilter.class);
    /** Probes carry no token: kubelets and Prometheus scrape them. */
    private static final Set<String> PROBES = Set.of("/actuator/health", "/actuator/prometheus");
    private static final Pattern JOBS = Pattern.compile("/api/v1/teams/([^/]+)/jobs(?:/([^/]+))?/?");
    private static final String BEARER = "Bearer ";
    private static final String HINT_TOKEN = "send 'Authorization: Bearer <token>' with a token the cluster accepts"
            + " (kubectl create token <service-account> -n <namespace>, or your OIDC id token)";
    /** The authenticated caller, for handlers that want to name them. */
    public static final String CALLER_ATTRIBUTE = AccessFilter.class.getName() + ".caller";

    private final AccessChecks checks;
    private final TeamsSource teams;
    private final Function<JobId, Optional<String>> jobNamespace;
    private final ObjectMapper json;

    /** @param jobNamespace where an existing job lives (its record's namespace); empty when there is no such job */
    public AccessFilter(AccessChecks checks, TeamsSource teams, Function<JobId, Optional<String>> jobNamespace,
                        ObjectMapper json) {
        this.checks = checks;
        this.teams = teams;
        this.jobNamespace = jobNamespace;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = path(request);
        // the admission webhooks are called by the API server, which presents no token; they only answer
        return checks.isOpen() || PROBES.contains(path) || path.startsWith("/actuator/health/")
                || path.startsWith(AdmissionController.PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            refuse(response, HttpStatus.UNAUTHORIZED, new ErrorBody("unauthenticated", null,
                    "the request carries no bearer token", HINT_TOKEN));
            return;
        }
        try {
            Optional<Caller> caller = checks.authenticator().authenticate(header.substring(BEARER.length()).trim());
            if (caller.isEmpty()) {
                refuse(response, HttpStatus.UNAUTHORIZED, new ErrorBody("unauthenticated", null, "the cluster did not"
                        + " accept the bearer token (expired, revoked or unknown)", HINT_TOKEN));
                return;
            }
            if (refusedAny(request, caller.get(), response)) {
                return;
            }
            request.setAttribute(CALLER_ATTRIBUTE, caller.get());
        } catch (AccessCheckUnavailableException e) {
            LOG.warn("access could not be checked: {}", e.getMessage());
            refuse(response, HttpStatus.SERVICE_UNAVAILABLE, new ErrorBody("access check unavailable", null,
                    e.getMessage(), "retry in a moment; nothing was changed"));
            return;
        }
        chain.doFilter(request, response);
    }

    /** Asks every question of a job call; answers 403 for the first one refused and returns true then. */
    private boolean refusedAny(HttpServletRequest request, Caller caller, HttpServletResponse response)
            throws IOException {
        Matcher jobs = JOBS.matcher(path(request));
        if (!jobs.matches() || !teams.teams().containsKey(jobs.group(1))) {
            return false; // authenticated is enough; an unknown team is the handler's 404
        }
        String team = jobs.group(1);
        String job = jobs.group(2);
        Optional<String> namespace = job == null ? Optional.empty() : jobNamespace.apply(new JobId(team, job));
        for (AccessRequest question : JobAccess.requests(request.getMethod(), team, job, teams.namespaces(), namespace)) {
            AccessDecision decision = checks.authorizer().authorize(caller, question);
            if (!decision.allowed()) {
                LOG.info("refused {} {} to {}: may not {}", request.getMethod(), path(request), caller.user(),
                        question.describe());
                refuse(response, HttpStatus.FORBIDDEN, new ErrorBody("forbidden", null, caller.user() + " may not "
                        + question.describe() + (decision.reason().isBlank() ? "" : " (" + decision.reason() + ")"),
                        "ask an administrator of namespace " + question.namespace() + " for a RoleBinding to the"
                                + " ClusterRole quotient-team-member; nothing was changed"));
                return true;
            }
        }
        return false;
    }

    private void refuse(HttpServletResponse response, HttpStatus status, ErrorBody body) throws IOException {
        response.setStatus(status.value());
        if (status == HttpStatus.UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"quotient\"");
        }
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        json.writeValue(response.getOutputStream(), body);
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}

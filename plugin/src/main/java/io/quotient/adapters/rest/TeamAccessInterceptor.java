package io.quotient.adapters.rest;

import io.quotient.access.AccessCheckUnavailableException;
import io.quotient.access.AccessChecks;
import io.quotient.access.AccessDecision;
import io.quotient.access.AccessRequest;
import io.quotient.access.Caller;
import io.quotient.access.JobAccess;
import io.quotient.core.model.JobId;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.port.TeamsSource;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Authorizes every call on a team's resources where the route is resolved: on the decoded path variables
 * ({@code team}, {@code name}) that the handler will use, not on the request's spelling. Fails closed: a team that is
 * not configured is asked about as a team of that name (its default namespace), and a route with a team whose method
 * maps to no question, or a call without an authenticated caller, is refused. With open access checks (the embedded
 * demo) everything passes.
 */
public final class TeamAccessInterceptor implements HandlerInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(TeamAccessInterceptor.class);
    static final String TEAM = "team";
    static final String JOB = "name";

    private final AccessChecks checks;
    private final TeamsSource teams;
    private final Function<JobId, Optional<String>> jobNamespace;
    private final JsonRefusal refusal;

    /** @param jobNamespace where an existing job lives (its record's namespace); empty when there is no such job */
    public TeamAccessInterceptor(
            AccessChecks checks,
            TeamsSource teams,
            Function<JobId, Optional<String>> jobNamespace,
            JsonRefusal refusal) {
        this.checks = checks;
        this.teams = teams;
        this.jobNamespace = jobNamespace;
        this.refusal = refusal;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        if (checks.isOpen()
                || !(request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE)
                        instanceof Map<?, ?> variables)
                || variables.get(TEAM) == null) {
            return true;
        }
        String team = variables.get(TEAM).toString();
        String job = variables.get(JOB) == null ? null : variables.get(JOB).toString();
        if (!(request.getAttribute(AccessFilter.CALLER_ATTRIBUTE) instanceof Caller caller)) {
            refusal.write(
                    response,
                    HttpStatus.UNAUTHORIZED,
                    new ErrorBody(
                            "unauthenticated",
                            null,
                            "the request reached a team's resources without an authenticated caller",
                            AccessFilter.HINT_TOKEN));
            return false;
        }
        try {
            return allowedAll(request, response, caller, team, job);
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
            return false;
        }
    }

    /** Asks every question of the call; answers 403 for the first one refused (or when there is none to ask). */
    private boolean allowedAll(
            HttpServletRequest request, HttpServletResponse response, Caller caller, String team, String job)
            throws IOException {
        Optional<String> namespace = job == null ? Optional.empty() : jobNamespace.apply(new JobId(team, job));
        List<AccessRequest> questions =
                JobAccess.requests(request.getMethod(), team, job, teams.namespaces(), namespace);
        if (questions.isEmpty()) {
            refusal.write(
                    response,
                    HttpStatus.FORBIDDEN,
                    new ErrorBody(
                            "forbidden",
                            null,
                            "the method " + request.getMethod() + " is not authorised on a team's jobs",
                            "use GET, POST or DELETE"));
            return false;
        }
        for (AccessRequest question : questions) {
            AccessDecision decision = checks.authorizer().authorize(caller, question);
            if (!decision.allowed()) {
                LOG.info(
                        "refused {} on team {} to {}: may not {}",
                        request.getMethod(),
                        LogValues.escape(team),
                        LogValues.escape(caller.user()),
                        LogValues.escape(question.describe()));
                refusal.write(
                        response,
                        HttpStatus.FORBIDDEN,
                        new ErrorBody(
                                "forbidden",
                                null,
                                caller.user()
                                        + " may not " + question.describe()
                                        + (decision.reason().isBlank() ? "" : " (" + decision.reason() + ")"),
                                "ask an administrator of namespace " + question.namespace()
                                        + " for a RoleBinding to the"
                                        + " ClusterRole quotient-team-member; nothing was changed"));
                return false;
            }
        }
        return true;
    }
}

package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The first filter of every request: a path that is not spelt canonically ({@link CanonicalPaths}) gets 400 in JSON
 * naming the path, before authentication, authorization or any handler sees it. With open access too, so that the
 * API answers the same spellings the same way in every mode.
 */
public final class CanonicalPathFilter extends OncePerRequestFilter {

    private final JsonRefusal refusal;

    public CanonicalPathFilter(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        Optional<String> problem = CanonicalPaths.problem(path);
        if (problem.isPresent()) {
            refusal.write(
                    response,
                    HttpStatus.BAD_REQUEST,
                    new ErrorBody(
                            "invalid path",
                            "path",
                            problem.get(),
                            "spell the path without encoding, matrix parameters, dot segments or a trailing '/':"
                                    + " /api/v1/teams/{team}/jobs/{name}; nothing was changed"));
            return;
        }
        chain.doFilter(request, response);
    }
}

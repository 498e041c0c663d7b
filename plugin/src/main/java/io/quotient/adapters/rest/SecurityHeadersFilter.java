package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Browser hardening on every answer: the dashboard loads only its own script, styles and API (its bars and GPU
 * map are sized by inline style attributes, the one inline content allowed), may not be framed, and no answer is
 * sniffed into another type. The API's answers are not stored by any cache.
 */
public final class SecurityHeadersFilter extends OncePerRequestFilter {

    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self';"
            + " frame-ancestors 'none'; base-uri 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        addTo(response);
        if (request.getRequestURI().startsWith("/api/")) {
            // a team's jobs and figures, read with a bearer token: no shared or browser cache keeps them
            response.setHeader("Cache-Control", "no-store");
        }
        chain.doFilter(request, response);
    }

    /** Sets the headers on an answer; also for the container's own answers, which no filter sees. */
    public static void addTo(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
    }
}

package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers TRACE on every path with the API's 405 in JSON, before any servlet: no path serves it, and the servlet's own
 * TRACE answer echoes the request's headers (cookies and tokens included) back, even after a handler has refused it.
 * Tomcat, left to refuse TRACE itself, answered without a body, without the security headers and with an {@code
 * Allow} header naming methods the path does not serve.
 */
public final class TraceRefusalFilter extends OncePerRequestFilter {

    private final JsonRefusal refusal;

    public TraceRefusalFilter(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("TRACE".equals(request.getMethod())) {
            refusal.writeStatus(response, HttpStatus.METHOD_NOT_ALLOWED);
            return;
        }
        chain.doFilter(request, response);
    }
}

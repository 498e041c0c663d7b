package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.util.List;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * For handlers that answer a client error with a status and no body (Spring Boot's actuator endpoints: an unknown
 * health group or metric, a tag no meter has; the dashboard's pages: a request whose {@code Accept} names no type of
 * the page): the status is sent as an error, so that the error page writes the API's JSON body instead of an empty
 * answer without a Content-Type, and says that a handler, not the container, refused the request
 * ({@link #HANDLER_REFUSED}: the container's 400 text blamed a malformed request line for {@code ?tag=bad}). Only
 * 4xx: a health check's 503 carries its own body. Not on the API's own paths, whose handlers write their bodies
 * after setting the status.
 */
public final class BodilessErrorFilter extends OncePerRequestFilter {

    /** Set on a request whose handler answered a bare 4xx: read by the error page ({@link JsonErrorController}). */
    public static final String HANDLER_REFUSED = BodilessErrorFilter.class.getName() + ".handlerRefused";

    /** The API, its description and the webhooks write their own error bodies. */
    private static final List<String> WRITES_ITS_BODIES = List.of("/api/", "/v3/", "/admission/");

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return WRITES_ITS_BODIES.stream().anyMatch(path::startsWith);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setStatus(int status) {
                if (status >= 400 && status < 500 && !isCommitted()) {
                    try {
                        request.setAttribute(HANDLER_REFUSED, Boolean.TRUE);
                        sendError(status);
                    } catch (IOException e) {
                        super.setStatus(status);
                    }
                    return;
                }
                super.setStatus(status);
            }
        });
    }
}

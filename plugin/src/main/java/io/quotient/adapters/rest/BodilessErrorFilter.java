package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * For handlers that answer a client error with a status and no body (Spring Boot's actuator endpoints: an unknown
 * health group or metric, a tag no meter has): the status is sent as an error, so that the container's error valve
 * writes the API's JSON body ({@link JsonErrorReportValve}) instead of an empty answer without a Content-Type. Only
 * 4xx: a health check's 503 carries its own body.
 */
public final class BodilessErrorFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setStatus(int status) {
                if (status >= 400 && status < 500 && !isCommitted()) {
                    try {
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

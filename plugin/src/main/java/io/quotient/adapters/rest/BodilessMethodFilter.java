package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A request of a method that takes no body (GET, HEAD, DELETE, OPTIONS) sent with one is refused (400, the body as a
 * whole: field null), on every path, before any handler: the body was read by nothing and dropped in silence, so a
 * client that sent {@code DELETE} with a body naming what to keep, or {@code GET} with the filter it wanted, was
 * answered as if it had sent none (and the job deleted). A body is a {@code Content-Length} above 0 or any {@code
 * Transfer-Encoding}; {@code Content-Length: 0}, which some clients always send, is no body.
 */
public final class BodilessMethodFilter extends OncePerRequestFilter {

    private static final Set<String> BODILESS = Set.of("GET", "HEAD", "DELETE", "OPTIONS");

    private final JsonRefusal refusal;

    public BodilessMethodFilter(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !BODILESS.contains(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            refusal.write(
                    response,
                    HttpStatus.BAD_REQUEST,
                    new ErrorBody(
                            "invalid request",
                            null,
                            request.getMethod() + " takes no body, and this request has one; it would be ignored",
                            "send the request without a body (and without Content-Length or Transfer-Encoding);"
                                    + " nothing was changed"));
            return;
        }
        chain.doFilter(request, response);
    }
}

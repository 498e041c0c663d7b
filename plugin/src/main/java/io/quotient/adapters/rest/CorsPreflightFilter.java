package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers a browser's CORS preflight (OPTIONS with {@code Origin} and {@code Access-Control-Request-Method}) with a 403
 * in the API's JSON: the service sets no CORS policy (the dashboard is served from the API's own origin), so no page
 * of another origin may call it. Spring refused it as well, but in plain text ("Invalid CORS request"); a plain OPTIONS
 * without those headers still lists the path's methods.
 */
public final class CorsPreflightFilter extends OncePerRequestFilter {

    private final JsonRefusal refusal;

    public CorsPreflightFilter(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("OPTIONS".equals(request.getMethod())
                && request.getHeader(HttpHeaders.ORIGIN) != null
                && request.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null) {
            refusal.write(
                    response,
                    HttpStatus.FORBIDDEN,
                    new ErrorBody(
                            "forbidden",
                            "Origin",
                            "cross-origin requests are not served: the API sets no CORS policy, so a page of another"
                                    + " origin may not call it",
                            "call the API from the dashboard's own origin or from a program (curl, a client library);"
                                    + " nothing was changed"));
            return;
        }
        chain.doFilter(request, response);
    }
}

package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Writes an {@link ErrorBody} straight to the response, whatever the request's {@code Accept} header: for refusals
 * made before (or instead of) a handler, where Spring's content negotiation does not run or would fail on a client
 * that asked for another type.
 */
public final class JsonRefusal {

    private final ObjectMapper json;

    public JsonRefusal(ObjectMapper json) {
        this.json = json;
    }

    /** The answer for a bare status, when nothing but the status is known ({@link StatusErrors}). */
    public void writeStatus(HttpServletResponse response, HttpStatus status) throws IOException {
        write(response, status, StatusErrors.of(status.value()));
    }

    public void write(HttpServletResponse response, HttpStatus status, ErrorBody body) throws IOException {
        response.resetBuffer();
        response.setStatus(status.value());
        if (status == HttpStatus.UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"quotient\"");
        }
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        json.writeValue(response.getOutputStream(), body);
    }
}

package io.quotient.adapters.rest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A client that accepts no type the API answers in gets 406 before any handler runs (the API's mappings declare
 * that they produce JSON, so the route is refused at mapping and nothing is recorded), with the reason in JSON: the
 * error shape is JSON whatever the {@code Accept} header said.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class NegotiationErrors {

    private final JsonRefusal refusal;

    public NegotiationErrors(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    void notAcceptable(HttpMediaTypeNotAcceptableException e, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        // the types the route produces (the usage report answers text/csv too), JSON first, without parameters
        List<String> types = e.getSupportedMediaTypes().stream()
                .map(t -> t.getType() + "/" + t.getSubtype())
                .distinct()
                .sorted(Comparator.comparing((String t) -> !t.equals(MediaType.APPLICATION_JSON_VALUE)))
                .toList();
        List<String> named = types.isEmpty() ? List.of(MediaType.APPLICATION_JSON_VALUE) : types;
        refusal.write(
                response,
                HttpStatus.NOT_ACCEPTABLE,
                new ErrorBody(
                        "not acceptable",
                        "Accept",
                        "this resource answers in " + String.join(" or ", named) + " only"
                                + (asksOtherCharset(request)
                                        ? ", written in UTF-8 (Accept names another charset)"
                                        : ""),
                        "send Accept: " + named.get(0) + " (or leave Accept out); nothing was recorded"));
    }

    /** Whether a range of the Accept header names a charset other than UTF-8 (the reason it matched nothing). */
    private static boolean asksOtherCharset(HttpServletRequest request) {
        try {
            return MediaType.parseMediaTypes(Collections.list(request.getHeaders(HttpHeaders.ACCEPT))).stream()
                    .anyMatch(AcceptedTypes::namesOtherCharset);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }
}

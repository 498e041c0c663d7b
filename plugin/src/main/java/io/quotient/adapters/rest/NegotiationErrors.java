package io.quotient.adapters.rest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A client that accepts no type the API answers in gets 406 before any handler runs (the API's mappings declare
 * that they produce JSON, so the route is refused at mapping and nothing is recorded), with the reason in JSON: the
 * error shape is JSON whatever the {@code Accept} header said. An {@code Accept} that is no list of media ranges is
 * a 400 naming it instead.
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
        if (accepted(request).isEmpty()) {
            // Spring reads an Accept it cannot parse as one that accepts nothing: the 406 then listed the route's
            // types, as if a well-formed header had asked for another
            refusal.write(
                    response,
                    HttpStatus.BAD_REQUEST,
                    new ErrorBody(
                            "invalid request",
                            "Accept",
                            "the Accept header is not a list of media ranges (type/subtype, each with at most a q"
                                    + " from 0 to 1 and a charset the service knows)",
                            "send Accept: application/json (or leave Accept out); nothing was recorded"));
            return;
        }
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
        return accepted(request).orElse(List.of()).stream().anyMatch(AcceptedTypes::namesOtherCharset);
    }

    /** The Accept header's ranges; empty when it does not parse (a q above 1, an empty or unknown charset). */
    private static Optional<List<MediaType>> accepted(HttpServletRequest request) {
        try {
            return Optional.of(MediaType.parseMediaTypes(Collections.list(request.getHeaders(HttpHeaders.ACCEPT))));
        } catch (IllegalArgumentException e) { // InvalidMediaTypeException, and a q or charset the parser refuses
            return Optional.empty();
        }
    }
}

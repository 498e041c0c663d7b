package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import io.quotient.deploy.JobNotFoundException;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.TeamNotFoundException;
import io.quotient.deploy.port.ClusterUnreachableException;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.StaleRecordException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Turns the use cases' errors into {@link ErrorBody} answers with the right status. */
@RestControllerAdvice
public class RestErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RestErrors.class);
    private static final String RETRY_AFTER_SECONDS = "5";

    @ExceptionHandler(RequestException.class)
    ResponseEntity<ErrorBody> invalid(RequestException e) {
        return answer(HttpStatus.BAD_REQUEST, invalidBody(e));
    }

    /** The 400 body of a request that breaks a rule: the field, the rule, and that nothing was changed. */
    static ErrorBody invalidBody(RequestException e) {
        String reason = e.getMessage().startsWith(e.field() + ": ")
                ? e.getMessage().substring(e.field().length() + 2)
                : e.getMessage();
        return new ErrorBody(
                "invalid request",
                e.field(),
                reason,
                "correct " + e.field() + " and send the request again; nothing was changed");
    }

    @ExceptionHandler(TeamNotFoundException.class)
    ResponseEntity<ErrorBody> unknownTeam(TeamNotFoundException e) {
        return answer(
                HttpStatus.NOT_FOUND,
                new ErrorBody("unknown team", "team", e.getMessage(), "GET /api/v1/teams lists the configured teams"));
    }

    @ExceptionHandler(JobNotFoundException.class)
    ResponseEntity<ErrorBody> unknownJob(JobNotFoundException e) {
        return answer(
                HttpStatus.NOT_FOUND,
                new ErrorBody(
                        "unknown job", "name", e.getMessage(), "GET /api/v1/teams/{team}/jobs lists the team's jobs"));
    }

    @ExceptionHandler(JobAlreadyExistsException.class)
    ResponseEntity<ErrorBody> nameTaken(JobAlreadyExistsException e) {
        return answer(
                HttpStatus.CONFLICT,
                new ErrorBody(
                        "name taken", "name", e.getMessage(), "choose another name, or DELETE the existing job first"));
    }

    @ExceptionHandler(StaleRecordException.class)
    ResponseEntity<ErrorBody> concurrent(StaleRecordException e) {
        return answer(
                HttpStatus.CONFLICT,
                new ErrorBody("concurrent change", null, e.getMessage(), "read the job again and retry"));
    }

    /**
     * The API server did not answer in the middle of the request (restarted, network cut): 503 with Retry-After, not
     * a 500, since nothing is wrong with the request or the service and every use case is safe to repeat.
     */
    @ExceptionHandler(ClusterUnreachableException.class)
    ResponseEntity<ErrorBody> clusterUnreachable(ClusterUnreachableException e) {
        LOG.warn("answering 503: the Kubernetes API server could not be reached: {}", e.getMessage());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", RETRY_AFTER_SECONDS)
                .contentType(MediaType.APPLICATION_JSON)
                .body(new ErrorBody(
                        "cluster unreachable",
                        null,
                        e.getMessage(),
                        "send the same request again in a few"
                                + " seconds: part of it may have been done (a deploy may be recorded already: GET the job"
                                + " first), the rest is done by the repeat"));
    }

    /** A body the JSON reader refused: 400 naming the field in the API's words, or 413 for one too long. */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorBody> unreadable(HttpMessageNotReadableException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException tooLarge) {
                return answer(HttpStatus.PAYLOAD_TOO_LARGE, BodySizeFilter.tooLarge(tooLarge.limit()));
            }
            if (t instanceof MalformedBodyException malformed) {
                return answer(
                        HttpStatus.BAD_REQUEST,
                        new ErrorBody(
                                "invalid request",
                                null,
                                malformed.reason(),
                                "send one JSON object in UTF-8; inside a string write \\u0000 for a NUL; nothing was"
                                        + " created"));
            }
        }
        return answer(HttpStatus.BAD_REQUEST, JsonErrors.describe(e.getCause()));
    }

    /**
     * A query or path parameter that is not of its type ({@code ?events=abc}, a number beyond its range): 400 naming
     * the parameter, for every handler alike.
     */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ErrorBody> parameterType(MethodArgumentTypeMismatchException e) {
        return answer(
                HttpStatus.BAD_REQUEST,
                new ErrorBody(
                        "invalid request",
                        e.getName(),
                        "must be " + JsonErrors.expectedInRange(e.getRequiredType()),
                        "correct the parameter " + e.getName() + " and send the request again"));
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ErrorBody> missingParameter(MissingServletRequestParameterException e) {
        return answer(
                HttpStatus.BAD_REQUEST,
                new ErrorBody(
                        "invalid request",
                        e.getParameterName(),
                        "is required",
                        "add the parameter " + e.getParameterName() + " and send the request again"));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorBody> method(HttpRequestMethodNotSupportedException e) {
        String allowed = e.getSupportedHttpMethods() == null
                ? ""
                : e.getSupportedHttpMethods().stream()
                        .map(Object::toString)
                        .sorted()
                        .collect(Collectors.joining(", "));
        HttpHeaders headers = new HttpHeaders();
        if (!allowed.isEmpty()) {
            // a 405 names the methods the path serves in Allow (RFC 9110, section 15.5.6), as OPTIONS on the path
            // does: with HEAD wherever GET is served, and OPTIONS itself; the hint names those a client means
            List<String> all = new ArrayList<>(List.of(allowed.split(", ")));
            if (all.contains("GET")) {
                all.add("HEAD");
            }
            all.add("OPTIONS");
            headers.set(HttpHeaders.ALLOW, String.join(", ", all));
        }
        return answer(
                HttpStatus.METHOD_NOT_ALLOWED,
                headers,
                new ErrorBody(
                        "method not allowed",
                        null,
                        e.getMethod() + " is not served on this path",
                        allowed.isEmpty() ? "see /v3/api-docs" : "use " + allowed));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorBody> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        // Spring's own message for a Content-Type that is no media type quotes its parser ("'mimeType' must not be
        // empty"); the answer names the header as sent instead, and a header left out as missing (it was called
        // "not a media type", which a client that sent none cannot find)
        String reason = request.getHeader(HttpHeaders.CONTENT_TYPE) == null
                ? "the request has no Content-Type; a job is sent as application/json"
                : e.getContentType() == null
                        ? "the Content-Type header is not a media type"
                        : "Content-Type '" + e.getContentType() + "' is not supported";
        return answer(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                new ErrorBody("unsupported media type", "Content-Type", reason, "send Content-Type: application/json"));
    }

    /** A path the API does not serve: the same JSON answer as a path the servlet container refuses itself. */
    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ErrorBody> noSuchPath(NoResourceFoundException e) {
        return answer(HttpStatus.NOT_FOUND, StatusErrors.of(HttpStatus.NOT_FOUND.value()));
    }

    /** A status a handler or Spring itself chose: kept, with its standard words instead of the exception's. */
    @ExceptionHandler(ResponseStatusException.class)
    ResponseEntity<ErrorBody> status(ResponseStatusException e) {
        HttpStatus status = HttpStatus.resolve(e.getStatusCode().value());
        String phrase = status == null ? "error " + e.getStatusCode().value() : status.getReasonPhrase();
        return answer(
                status == null ? HttpStatus.INTERNAL_SERVER_ERROR : status,
                new ErrorBody(
                        phrase.toLowerCase(Locale.ROOT),
                        null,
                        e.getReason() == null ? phrase : e.getReason(),
                        "see /v3/api-docs"));
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ErrorBody> unexpected(RuntimeException e) {
        LOG.error("request failed unexpectedly", e);
        // the exception is the service's, not the user's: its class and message stay in the log
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .body(new ErrorBody(
                        "internal error",
                        null,
                        "the service failed to complete the request",
                        "the service log has the details; what was recorded is" + " completed by the next re-queue"));
    }

    private static ResponseEntity<ErrorBody> answer(HttpStatus status, ErrorBody body) {
        return answer(status, HttpHeaders.EMPTY, body);
    }

    private static ResponseEntity<ErrorBody> answer(HttpStatus status, HttpHeaders headers, ErrorBody body) {
        // field and reason quote what the user sent (a template name, a label value): one escaped line each
        LOG.info(
                "answering {}: {} ({}): {}",
                status.value(),
                body.error(),
                LogValues.escape(body.field()),
                LogValues.escape(body.reason()));
        // JSON whatever the request accepts: a refusal of a CSV request (GET /api/v1/usage with Accept: text/csv)
        // is still the API's error shape, not a failed negotiation
        return ResponseEntity.status(status)
                .headers(headers)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }
}

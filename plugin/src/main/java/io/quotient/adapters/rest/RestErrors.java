package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quotient.core.scheduling.RequestException;
import io.quotient.deploy.JobNotFoundException;
import io.quotient.deploy.TeamNotFoundException;
import io.quotient.deploy.port.ClusterUnreachableException;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.StaleRecordException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.util.stream.Collectors;

/** Turns the use cases' errors into {@link ErrorBody} answers with the right status. */
@RestControllerAdvice
public class RestErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RestErrors.class);
    private static final String RETRY_AFTER_SECONDS = "5";

    @ExceptionHandler(RequestException.class)
    ResponseEntity<ErrorBody> invalid(RequestException e) {
        String reason = e.getMessage().startsWith(e.field() + ": ")
                ? e.getMessage().substring(e.field().length() + 2) : e.getMessage();
        return answer(HttpStatus.BAD_REQUEST, new ErrorBody("invalid request", e.field(), reason,
                "correct " + e.field() + " and send the request again; nothing was created"));
    }

    @ExceptionHandler(TeamNotFoundException.class)
    ResponseEntity<ErrorBody> unknownTeam(TeamNotFoundException e) {
        return answer(HttpStatus.NOT_FOUND, new ErrorBody("unknown team", "team", e.getMessage(),
                "GET /api/v1/teams lists the configured teams"));
    }

    @ExceptionHandler(JobNotFoundException.class)
    ResponseEntity<ErrorBody> unknownJob(JobNotFoundException e) {
        return answer(HttpStatus.NOT_FOUND, new ErrorBody("unknown job", "name", e.getMessage(),
                "GET /api/v1/teams/{team}/jobs lists the team's jobs"));
    }

    @ExceptionHandler(JobAlreadyExistsException.class)
    ResponseEntity<ErrorBody> nameTaken(JobAlreadyExistsException e) {
        return answer(HttpStatus.CONFLICT, new ErrorBody("name taken", "name", e.getMessage(),
                "choose another name, or DELETE the existing job first"));
    }

    @ExceptionHandler(StaleRecordException.class)
    ResponseEntity<ErrorBody> concurrent(StaleRecordException e) {
        return answer(HttpStatus.CONFLICT, new ErrorBody("concurrent change", null, e.getMessage(),
                "read the job again and retry"));
    }

    /**
     * The API server did not answer in the middle of the request (restarted, network cut): 503 with Retry-After, not
     * a 500, since nothing is wrong with the request or the service and every use case is safe to repeat.
     */
    @ExceptionHandler(ClusterUnreachableException.class)
    ResponseEntity<ErrorBody> clusterUnreachable(ClusterUnreachableException e) {
        LOG.warn("answering 503: the Kubernetes API server could not be reached: {}", e.getMessage());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", RETRY_AFTER_SECONDS)
                .body(new ErrorBody("cluster unreachable", null, e.getMessage(), "send the same request again in a few"
                        + " seconds: part of it may have been done (a deploy may be recorded already: GET the job"
                        + " first), the rest is done by the repeat"));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorBody> unreadable(HttpMessageNotReadableException e) {
        if (e.getCause() instanceof UnrecognizedPropertyException u) {
            return answer(HttpStatus.BAD_REQUEST, new ErrorBody("invalid request", path(u),
                    "unknown field '" + u.getPropertyName() + "'", "remove it or fix its spelling; known fields: "
                    + u.getKnownPropertyIds().stream().map(String::valueOf).sorted().collect(Collectors.joining(", "))));
        }
        if (e.getCause() instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            return answer(HttpStatus.BAD_REQUEST, new ErrorBody("invalid request", path(m),
                    "has the wrong type: " + m.getOriginalMessage(), "see the request schema at /v3/api-docs"));
        }
        return answer(HttpStatus.BAD_REQUEST, new ErrorBody("invalid request", null,
                "the body is missing or is not valid JSON", "send a JSON object; see /v3/api-docs"));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorBody> mediaType(HttpMediaTypeNotSupportedException e) {
        return answer(HttpStatus.UNSUPPORTED_MEDIA_TYPE, new ErrorBody("unsupported media type", null, e.getMessage(),
                "send Content-Type: application/json"));
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ErrorBody> unexpected(RuntimeException e) {
        LOG.error("request failed unexpectedly", e);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(new ErrorBody("internal error", null,
                e.toString(), "the service log has the details; what was recorded is completed by the next re-queue"));
    }

    private static ResponseEntity<ErrorBody> answer(HttpStatus status, ErrorBody body) {
        LOG.info("answering {}: {} ({}): {}", status.value(), body.error(), body.field(), body.reason());
        return ResponseEntity.status(status).body(body);
    }

    /** The JSON path of a mapping error as the user wrote it: {@code gpu.fraction}, {@code command[2]}. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }
}

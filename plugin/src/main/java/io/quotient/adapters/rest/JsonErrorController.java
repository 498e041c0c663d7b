package io.quotient.adapters.rest;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page of the service, for every status a handler did not answer itself (no handler for the path, a
 * filter's sendError): always the API's JSON error shape, whatever the client accepts, in place of Spring Boot's
 * Whitelabel page and its default attributes.
 */
@RestController
public class JsonErrorController implements ErrorController {

    private final JsonRefusal refusal;

    public JsonErrorController(JsonRefusal refusal) {
        this.refusal = refusal;
    }

    @RequestMapping("${server.error.path:${error.path:/error}}")
    public void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        // no status: the error page was asked for directly (GET /error), not forwarded to; it is no resource
        int status = code instanceof Integer value ? value : HttpStatus.NOT_FOUND.value();
        HttpStatus resolved = HttpStatus.resolve(status);
        ErrorBody body = request.getAttribute(BodilessErrorFilter.HANDLER_REFUSED) != null
                ? StatusErrors.ofHandler(status)
                : StatusErrors.of(status);
        refusal.write(response, resolved == null ? HttpStatus.INTERNAL_SERVER_ERROR : resolved, body);
    }
}

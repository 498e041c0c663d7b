package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error answers in the API's JSON shape ({@link ErrorBody}) instead of its HTML page: for requests the
 * container refuses before any filter or handler runs (an encoded '/', '\' or NUL in the path, an unparseable
 * request line) and for errors no handler answered. Names no server, version or Java type.
 */
public final class JsonErrorReportValve extends ErrorReportValve {

    private static final ObjectMapper JSON = new ObjectMapper();

    public JsonErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            SecurityHeadersFilter.addTo(response);
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(StatusErrors.of(status)));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was committed meanwhile: nothing more can be said to it
        }
    }
}

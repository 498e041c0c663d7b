package io.quotient.adapters.rest;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

import java.io.IOException;
import java.io.Writer;

/**
 * Tomcat's own error answers in the API's JSON shape ({@link ErrorBody}) instead of its HTML page: for requests the
 * container refuses before any filter or handler runs (an encoded '/', '\' or NUL in the path, an unparseable
 * request line) and for errors no handler answered. Names no server, version or Java type.
 */
public final class JsonErrorReportValve extends ErrorReportValve {

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
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body(status));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was committed meanwhile: nothing more can be said to it
        }
    }

    /** Fixed texts only: nothing of the refused request is echoed. */
    static String body(int status) {
        if (status == 400) {
            return json("invalid request", "path", "the request was refused before it reached the service: its path"
                    + " or request line is malformed (an encoded '/', '\\\\' or NUL, or a character HTTP forbids)",
                    "spell the path without encoding: /api/v1/teams/{team}/jobs/{name}; nothing was changed");
        }
        if (status == 404) {
            return json("not found", "path", "no page or API resource has this path", "see /v3/api-docs for the API");
        }
        if (status < 500) {
            return json("refused", null, "the request was refused with HTTP status " + status,
                    "see /v3/api-docs for the API; nothing was changed");
        }
        return json("internal error", null, "the service failed to answer (HTTP status " + status + ")",
                "the service log has the details; retry in a moment");
    }

    private static String json(String error, String field, String reason, String hint) {
        return "{\"error\":\"" + error + "\",\"field\":" + (field == null ? "null" : "\"" + field + "\"")
                + ",\"reason\":\"" + reason + "\",\"hint\":\"" + hint + "\"}";
    }
}

package io.quotient.adapters.rest;

/**
 * The error answer for a bare HTTP status, when nothing but the status is known: requests the servlet container
 * refuses itself and paths no handler serves. Fixed texts only: nothing of the refused request is echoed.
 */
public final class StatusErrors {

    private StatusErrors() {}

    /**
     * The answer for a bare status a handler set (an actuator endpoint, a page), not the container: its 400 is a query
     * the endpoint does not take, not a malformed request line.
     */
    public static ErrorBody ofHandler(int status) {
        if (status == 400) {
            return new ErrorBody(
                    "invalid request",
                    "query",
                    "the endpoint does not take this query (a metric's tag is written name:value, such as"
                            + " tag=area:heap)",
                    "GET /actuator/metrics/{name} lists the tags a metric has; nothing was changed");
        }
        return of(status);
    }

    public static ErrorBody of(int status) {
        return switch (status) {
            case 400 ->
                new ErrorBody(
                        "invalid request",
                        null,
                        "the request was refused before it reached the service: its request line, path or headers"
                                + " are malformed (an encoded '/', '\\' or NUL in the path, a character HTTP forbids, a"
                                + " header too large, given twice where HTTP allows one, or without a ':')",
                        "spell the path without encoding (/api/v1/teams/{team}/jobs/{name}) and send well-formed"
                                + " HTTP/1.1 headers; nothing was changed");
            case 404 ->
                new ErrorBody(
                        "not found",
                        "path",
                        "no page or API resource has this path",
                        "GET /v3/api-docs describes the API");
            case 405 ->
                new ErrorBody(
                        "method not allowed",
                        null,
                        "this path does not take that method",
                        "GET /v3/api-docs lists each path's methods; nothing was changed");
            case 406 ->
                new ErrorBody(
                        "not acceptable",
                        "Accept",
                        "this path answers in no type the Accept header accepts (the dashboard's pages in HTML, CSS"
                                + " or JavaScript, the actuator in JSON, all in UTF-8)",
                        "leave Accept out, or accept the type of the page; nothing was changed");
            case 413 ->
                new ErrorBody(
                        "request too large",
                        null,
                        "the request is larger than the service accepts",
                        "send a smaller request; nothing was changed");
            case 417 ->
                new ErrorBody(
                        "expectation failed",
                        "Expect",
                        "the Expect header asks for something other than 100-continue, the only expectation the"
                                + " service meets",
                        "leave Expect out, or send Expect: 100-continue; nothing was changed");
            case 501 ->
                new ErrorBody(
                        "not implemented",
                        null,
                        "the request uses an HTTP method or feature the service does not implement (CONNECT, or a"
                                + " transfer coding other than chunked)",
                        "use the methods GET /v3/api-docs lists, with the body sent as it is or chunked; nothing was"
                                + " changed");
            case 505 ->
                new ErrorBody(
                        "HTTP version not supported",
                        null,
                        "the request line names an HTTP version the service does not speak",
                        "send HTTP/1.1 (or HTTP/1.0); nothing was changed");
            default ->
                status < 500
                        ? new ErrorBody(
                                "refused",
                                null,
                                "the request was refused with HTTP status " + status,
                                "GET /v3/api-docs describes the API; nothing was changed")
                        : new ErrorBody(
                                "internal error",
                                null,
                                "the service failed to answer (HTTP status " + status + ")",
                                "the service log has the details; retry in a moment");
        };
    }
}

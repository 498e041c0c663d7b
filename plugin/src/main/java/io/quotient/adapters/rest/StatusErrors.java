package io.quotient.adapters.rest;

/**
 * The error answer for a bare HTTP status, when nothing but the status is known: requests the servlet container
 * refuses itself and paths no handler serves. Fixed texts only: nothing of the refused request is echoed.
 */
public final class StatusErrors {

    private StatusErrors() {}

    public static ErrorBody of(int status) {
        return switch (status) {
            case 400 ->
                new ErrorBody(
                        "invalid request",
                        "path",
                        "the request was refused before it reached the"
                                + " service: its path or request line is malformed (an encoded '/', '\\' or NUL, or a character"
                                + " HTTP forbids)",
                        "spell the path without encoding: /api/v1/teams/{team}/jobs/{name};" + " nothing was changed");
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
            case 413 ->
                new ErrorBody(
                        "request too large",
                        null,
                        "the request is larger than the service accepts",
                        "send a smaller request; nothing was changed");
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

package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.rest.SecurityHeadersFilter;
import io.quotient.adapters.rest.StatusErrors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the whole service answers over real HTTP, beyond the handlers: content negotiation decided before anything is
 * recorded, JSON error bodies for every refusal (Tomcat's own included) with no Java or server internals, the
 * unknown team named before the unknown job, and the browser security headers.
 */
class HttpContractTest extends EmbeddedServiceTest {

    private static final String JOB = "{\"name\": \"neg\", \"gpu\": {\"count\": 1}}";

    @Test
    void aClientThatAcceptsNoJsonGets406AndNothingIsPlaced() throws IOException {
        RawHttp http = http();
        for (String accept : List.of("application/xml", "text/html", "application/json;q=0", "*/*;q=0")) {
            RawHttp.Response valid = http.send("POST", "/api/v1/teams/neg/jobs", Map.of("Accept", accept), JOB);
            assertThat(valid.status()).as(accept).isEqualTo(406);
            assertThat(valid.header("Content-Type")).startsWith("application/json");
            assertThat(valid.body()).contains("\"field\":\"Accept\"");
            RawHttp.Response invalid = http.send(
                    "POST",
                    "/api/v1/teams/neg/jobs",
                    Map.of("Accept", accept),
                    "{\"name\": \"neg\", \"gpu\": {\"count\": -1}}");
            assertThat(invalid.status()).as("invalid body, " + accept).isEqualTo(406);
        }
        assertThat(http.send("GET", "/api/v1/teams/neg/jobs", Map.of(), null).body())
                .isEqualTo("[]");
        assertThat(http.send("GET", "/api/v1/teams", Map.of("Accept", "text/html"), null)
                        .body())
                .contains("answers in application/json only");
        RawHttp.Response usage = http.send("GET", "/api/v1/usage", Map.of("Accept", "application/xml"), null);
        assertThat(usage.status()).isEqualTo(406);
        assertThat(usage.body()).as("the types the route answers in").contains("application/json or text/csv only");
        RawHttp.Response placed =
                http.send("POST", "/api/v1/teams/neg/jobs", Map.of("Accept", "application/json"), JOB);
        assertThat(placed.status()).as("the first real deploy is not a 409").isEqualTo(201);
    }

    @Test
    void refusalsOfTheContainerAndUnservedPathsAnswerInJsonWithoutInternals() throws IOException {
        RawHttp http = http();
        for (String path : List.of(
                "/api/v1/teams/neg%2Fx/jobs",
                "/api/v1/teams/neg%5Cx/jobs",
                "/api/v1/teams/neg%00/jobs",
                "/api/v1/teams/neg/jobs/" + "x".repeat(10_000),
                "/api/v1/nothing",
                "/no-such-page")) {
            for (String accept : List.of("text/html", "application/json")) {
                RawHttp.Response answer = http.send("GET", path, Map.of("Accept", accept), null);
                String what = path.substring(0, Math.min(60, path.length())) + " " + accept;
                assertThat(answer.status()).as(what).isBetween(400, 499);
                assertThat(answer.header("Content-Type")).as(what).startsWith("application/json");
                assertThat(answer.body())
                        .as(what)
                        .contains("\"error\"", "\"reason\"")
                        .doesNotContain("Whitelabel", "Tomcat", "java.", "Exception", "<html");
            }
        }
    }

    @Test
    void aPathNoHandlerServesAnswersTheOneNotFoundBody() throws IOException {
        RawHttp http = http();
        RawHttp.Response answer = http.send("GET", "/api/v1/no-such-resource", Map.of(), null);
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body())
                .contains(
                        "\"error\":\"not found\"",
                        "\"field\":\"path\"",
                        StatusErrors.of(404).reason());
    }

    @Test
    void anUnknownTeamIsNamedBeforeAnUnknownJob() throws IOException {
        RawHttp http = http();
        for (String method : List.of("GET", "DELETE")) {
            RawHttp.Response answer = http.send(method, "/api/v1/teams/team-z/jobs/x", Map.of(), null);
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.body()).as(method).contains("\"error\":\"unknown team\"", "\"field\":\"team\"");
        }
    }

    @Test
    void everyAnswerCarriesTheBrowserSecurityHeaders() throws IOException {
        RawHttp http = http();
        for (String path : List.of("/", "/dashboard.js", "/api/v1/teams", "/api/v1/teams/neg%2Dx/jobs")) {
            RawHttp.Response answer = http.send("GET", path, Map.of(), null);
            assertThat(answer.header("Content-Security-Policy"))
                    .as(path)
                    .isEqualTo(SecurityHeadersFilter.CONTENT_SECURITY_POLICY)
                    .contains("frame-ancestors 'none'");
            assertThat(answer.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(answer.header("X-Frame-Options")).as(path).isEqualTo("DENY");
        }
    }

    /** TRACE is refused as any method a path does not serve, and the request is never echoed back. */
    @Test
    void traceIsRefusedInJsonAndEchoesNothing() throws IOException {
        RawHttp http = http();
        for (String path : List.of("/api/v1/teams", "/api/v1/teams/neg/jobs", "/", "/dashboard.js")) {
            RawHttp.Response answer = http.send("TRACE", path, Map.of("X-Secret", "cookie-value"), null);
            assertThat(answer.status()).as(path).isEqualTo(405);
            assertThat(answer.header("Content-Type")).as(path).startsWith("application/json");
            assertThat(answer.body()).as(path).contains("method not allowed").doesNotContain("cookie-value");
            assertThat(answer.header("Content-Security-Policy"))
                    .as(path)
                    .isEqualTo(SecurityHeadersFilter.CONTENT_SECURITY_POLICY);
        }
    }

    /** A 405 names the methods the path serves in Allow as well as in its hint. */
    @Test
    void aMethodThePathDoesNotServeIsAnsweredWithTheAllowedOnes() throws IOException {
        RawHttp.Response answer = http().send("PUT", "/api/v1/teams", Map.of(), "{}");
        assertThat(answer.status()).isEqualTo(405);
        assertThat(answer.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(answer.body()).contains("\"hint\":\"use GET\"");
    }

    @Test
    void theErrorPageAskedForDirectlyIsNotFound() throws IOException {
        RawHttp http = http();
        for (String method : List.of("GET", "POST", "DELETE")) {
            RawHttp.Response answer = http.send(method, "/error", Map.of(), method.equals("POST") ? JOB : null);
            assertThat(answer.status()).as(method).isEqualTo(404);
            assertThat(answer.body()).as(method).contains("\"error\":\"not found\"");
        }
    }

    /**
     * Requests Tomcat refuses for their headers or protocol, before any filter: JSON naming no field (the path is not
     * what is wrong), not called a failure of the service, with the browser security headers all the same.
     */
    @Test
    void requestsTheContainerRefusesForTheirHeadersOrProtocolAreAnsweredAsSuch() throws IOException {
        RawHttp http = http();
        Map<String, Integer> requests = Map.of(
                "GET /api/v1/teams HTTP/1.1\r\nHost: localhost\r\nHost: other\r\nConnection: close\r\n\r\n",
                400,
                "GET /api/v1/teams HTTP/1.1\r\nHost: localhost\r\nno colon here\r\nConnection: close\r\n\r\n",
                400,
                "GET /api/v1/teams HTTP/9.9\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                505,
                "POST /api/v1/teams/neg/jobs HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n"
                        + "Content-Type: application/json\r\nConnection: close\r\n\r\n0\r\n\r\n",
                501);
        requests.forEach((request, status) -> {
            String what = request.substring(0, request.indexOf('\r'));
            RawHttp.Response answer = send(http, request);
            assertThat(answer.status()).as(what).isEqualTo(status);
            assertThat(answer.header("Content-Type")).as(what).startsWith("application/json");
            assertThat(answer.body()).as(what).doesNotContain("internal error", "\"field\":\"path\"", "retry");
            assertThat(answer.header("Content-Security-Policy"))
                    .as(what)
                    .isEqualTo(SecurityHeadersFilter.CONTENT_SECURITY_POLICY);
            assertThat(answer.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
        });
    }

    /**
     * Bytes UTF-8 does not allow were decoded leniently by the JSON reader: {@code C0 AF} became a '/' in a name,
     * {@code C0 80} a NUL in an annotation, past every check of the decoded text. Now each is a 400 at its byte, and a
     * body declared in another charset or with a content coding a 415; nothing is created.
     */
    @Test
    void aBodyThatIsNotUtf8JsonTextIsRefusedAtItsByteAndCreatesNothing() throws IOException {
        RawHttp http = http();
        Map<String, byte[]> bodies = Map.of(
                "overlong '/'", bytes("{\"name\":\"o", 0xC0, 0xAF, "\",\"gpu\":{\"count\":1}}"),
                "overlong NUL", bytes("{\"name\":\"o\",\"annotations\":{\"a\":\"", 0xC0, 0x80, "\"}}"),
                "surrogate", bytes("{\"name\":\"o\",\"command\":[\"", 0xED, 0xA0, 0x80, "\"]}"),
                "beyond U+10FFFF", bytes("{\"name\":\"o\",\"image\":\"", 0xF4, 0x90, 0x80, 0x80, "\"}"),
                "cut character", bytes("{\"name\":\"o", 0xE2, 0x82));
        bodies.forEach((what, body) -> {
            RawHttp.Response answer = send(http, post(body.length, "application/json", null), body);
            assertThat(answer.status()).as(what).isEqualTo(400);
            assertThat(answer.body()).as(what).contains("not UTF-8", "(at byte ");
        });
        byte[] job = JOB.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response utf16 = send(http, post(job.length, "application/json; charset=utf-16", null), job);
        assertThat(utf16.status()).isEqualTo(415);
        assertThat(utf16.body()).contains("\"field\":\"Content-Type\"", "UTF-8");
        RawHttp.Response gzip = send(http, post(job.length, "application/json", "gzip"), job);
        assertThat(gzip.status()).isEqualTo(415);
        assertThat(gzip.body()).contains("\"field\":\"Content-Encoding\"");
        // a header given on two lines: the reader saw only the first
        RawHttp.Response secondCoding =
                send(http, post(job.length, "application/json", "identity\r\nContent-Encoding: gzip"), job);
        assertThat(secondCoding.status()).isEqualTo(415);
        assertThat(secondCoding.body()).contains("\"field\":\"Content-Encoding\"");
        RawHttp.Response secondType = send(
                http,
                post(job.length, "application/json\r\nContent-Type: application/json; charset=utf-16", null),
                job);
        assertThat(secondType.status()).isEqualTo(400);
        assertThat(secondType.body()).contains("\"field\":\"Content-Type\"", "more than once");
        assertThat(http.send("GET", "/api/v1/teams/neg/jobs/o", Map.of(), null).status())
                .as("no job was created")
                .isEqualTo(404);
    }

    private static String post(int length, String contentType, String encoding) {
        return "POST /api/v1/teams/neg/jobs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: "
                + contentType + "\r\n" + (encoding == null ? "" : "Content-Encoding: " + encoding + "\r\n")
                + "Content-Length: " + length + "\r\n\r\n";
    }

    /** Text parts in UTF-8 and the raw bytes between them, in order. */
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String text) {
                out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }

    private static RawHttp.Response send(RawHttp http, String head) {
        return send(http, head, new byte[0]);
    }

    private static RawHttp.Response send(RawHttp http, String head, byte[] body) {
        try {
            return http.sendRaw(head, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A new job's Location is relative: built from the Host header it echoed any host to the caller, and a Host no URI
     * can hold ({@code 1.2.3.4.5}) failed with a 500 after the job had been recorded. The actuator has no links page
     * to echo the host into either.
     */
    @Test
    void aNewJobsLocationIsRelativeWhateverHostTheCallerSends() {
        RawHttp http = http();
        for (String host : List.of("evil.example.com", "1.2.3.4.5")) {
            String name = host.startsWith("evil") ? "named-host" : "numbered-host";
            byte[] job = ("{\"name\":\"" + name + "\",\"gpu\":{\"count\":1}}").getBytes(StandardCharsets.UTF_8);
            String head = "POST /api/v1/teams/located/jobs HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: " + job.length
                    + "\r\n\r\n";
            RawHttp.Response answer = send(http, head, job);
            assertThat(answer.status()).as(host).isEqualTo(201);
            assertThat(answer.header("Location")).as(host).isEqualTo("/api/v1/teams/located/jobs/" + name);
        }
        RawHttp.Response links =
                send(http, "GET /actuator HTTP/1.1\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n");
        assertThat(links.status()).isEqualTo(404);
        assertThat(links.body()).doesNotContain("evil.example.com");
    }

    /**
     * Answers that were no JSON: a CORS preflight (Spring's plain-text "Invalid CORS request") and the actuator's
     * bodiless 404s; a plain OPTIONS still lists the methods, a known actuator endpoint still answers.
     */
    @Test
    void aCorsPreflightAndTheActuatorsClientErrorsAnswerInJson() throws IOException {
        RawHttp http = http();
        RawHttp.Response preflight = http.send(
                "OPTIONS",
                "/api/v1/teams/neg/jobs",
                Map.of("Origin", "https://evil.example", "Access-Control-Request-Method", "DELETE"),
                null);
        assertThat(preflight.status()).isEqualTo(403);
        assertThat(preflight.header("Content-Type")).startsWith("application/json");
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
        assertThat(preflight.body()).contains("\"field\":\"Origin\"", "no CORS policy");
        RawHttp.Response options = http.send("OPTIONS", "/api/v1/teams", Map.of(), null);
        assertThat(options.status()).isEqualTo(200);
        assertThat(options.header("Allow")).contains("GET");
        for (String path : List.of("/actuator/health/no-such-group", "/actuator/metrics/no.such.metric")) {
            RawHttp.Response answer = http.send("GET", path, Map.of(), null);
            assertThat(answer.status()).as(path).isEqualTo(404);
            assertThat(answer.header("Content-Type")).as(path).startsWith("application/json");
            assertThat(answer.body()).as(path).contains("\"error\":\"not found\"");
        }
        assertThat(http.send("GET", "/actuator/health", Map.of(), null).body()).contains("\"status\":\"UP\"");
    }

    /** The API's answers are stored by no cache; "100 Continue" is not sent for a body the size check refuses. */
    @Test
    void apiAnswersAreNotCachedAndAnOversizeBodyIsNotInvited() throws IOException {
        RawHttp http = http();
        assertThat(http.send("GET", "/api/v1/teams", Map.of(), null).header("Cache-Control"))
                .isEqualTo("no-store");
        RawHttp.Response oversize = send(
                http,
                "POST /api/v1/teams/neg/jobs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type:"
                        + " application/json\r\nExpect: 100-continue\r\nContent-Length: 99999999999\r\n\r\n");
        assertThat(oversize.status()).as("the first status line, not 100").isEqualTo(413);
    }

    /** The description names its server relatively: a caller's Host header does not become a server of the API. */
    @Test
    void theOpenApiDescriptionDoesNotReflectTheHostHeader() throws IOException {
        String head = "GET /v3/api-docs HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
        RawHttp.Response answer = send(http(), head);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body())
                .doesNotContain("evil.example")
                .contains("\"title\":\"Quotient API\"", "\"url\":\"/\"");
    }

    @Test
    void theOpenApiDescriptionTypesErrorAnswersAsErrorBodies() throws IOException {
        String api = http().send("GET", "/v3/api-docs", Map.of(), null).body();
        String deploy = api.substring(api.indexOf("\"post\""));
        String errorRef = "\"$ref\":\"#/components/schemas/ErrorBody\"";
        for (String code : List.of("\"400\"", "\"404\"", "\"409\"")) {
            String response = deploy.substring(deploy.indexOf(code), deploy.indexOf("}}}", deploy.indexOf(code)));
            assertThat(response).as(code).contains(errorRef).doesNotContain("JobView");
        }
    }
}

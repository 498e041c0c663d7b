package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fourth round of hostile probing, over real HTTP: an {@code Accept} charset the service does not write, the
 * pages' and the actuator's bare refusals, a trailing '/', and a MiB request beyond the team's maxGpus.
 */
class HostileNegotiationTest extends EmbeddedServiceTest {

    private static final String JOB = "{\"name\": \"cs\", \"gpu\": {\"count\": 1}}";

    /** Was: the job recorded, then 500 (the JSON writer had no UTF-16 or Latin-1 to write in). */
    @Test
    void anAcceptCharsetOtherThanUtf8Is406AndRecordsNothing() throws IOException {
        RawHttp http = http();
        deployRefused(
                List.of(
                        "application/json; charset=utf-16",
                        "application/json; charset=ISO-8859-1",
                        "*/*; charset=utf-16",
                        "application/json; charset=utf-16, */*; charset=utf-32"),
                406,
                "written in UTF-8 (Accept names another charset)");
        RawHttp.Response utf8 =
                http.send("GET", "/api/v1/teams", Map.of("Accept", "application/json; charset=UTF-8"), null);
        assertThat(utf8.status()).isEqualTo(200);
        RawHttp.Response fallback = http.send(
                "GET", "/api/v1/teams", Map.of("Accept", "application/json; charset=utf-16, */*;q=0.1"), null);
        assertThat(fallback.status()).as("a wider range accepted beside it").isEqualTo(200);
    }

    /** Was: 406 listing the route's types, as if a well-formed Accept had asked for another. */
    @Test
    void anAcceptThatIsNoListOfMediaRangesIs400NamingIt() throws IOException {
        deployRefused(
                List.of("*/*;q=1.5", "application/json;q=NaN", "application/json;charset=", "garbage"),
                400,
                "not a list of media ranges");
    }

    /** Each Accept refused with the status and the text in a JSON body naming Accept, and no job recorded. */
    private void deployRefused(List<String> accepts, int status, String text) throws IOException {
        RawHttp http = http();
        for (String accept : accepts) {
            RawHttp.Response answer = http.send("POST", "/api/v1/teams/cs/jobs", Map.of("Accept", accept), JOB);
            assertThat(answer.status()).as(accept).isEqualTo(status);
            assertThat(answer.header("Content-Type")).as(accept).startsWith("application/json");
            assertThat(answer.body()).as(accept).contains("\"field\":\"Accept\"", text);
        }
        assertThat(http.send("GET", "/api/v1/teams/cs/jobs", Map.of(), null).body())
                .isEqualTo("[]");
    }

    /** Was: 417 with the generic "refused" body. */
    @Test
    void anExpectationOtherThan100ContinueIs417NamingExpect() throws IOException {
        RawHttp.Response answer = http().send("POST", "/api/v1/teams/cs/jobs", Map.of("Expect", "fancy"), JOB);
        assertThat(answer.status()).isEqualTo(417);
        assertThat(answer.body()).contains("\"field\":\"Expect\"", "100-continue");
    }

    /** Was: 200 with the CSV in UTF-8, labelled text/csv;charset=UTF-8, for a client that asked for UTF-16. */
    @Test
    void theUsageReportInAnotherCharsetIs406NamingBothTypes() throws IOException {
        RawHttp.Response answer =
                http().send("GET", "/api/v1/usage", Map.of("Accept", "text/csv; charset=utf-16"), null);
        assertThat(answer.status()).isEqualTo(406);
        assertThat(answer.body()).contains("application/json or text/csv only, written in UTF-8");
    }

    /** Was: 406 with no body and no Content-Type on the dashboard; the actuator's said "refused". */
    @Test
    void aPageOrTheActuatorThatCannotAnswerInTheAcceptedTypeSaysSoInJson() throws IOException {
        RawHttp http = http();
        for (String path : List.of("/", "/actuator/health")) {
            RawHttp.Response answer = http.send("GET", path, Map.of("Accept", "application/xml"), null);
            assertThat(answer.status()).as(path).isEqualTo(406);
            assertThat(answer.header("Content-Type")).as(path).startsWith("application/json");
            assertThat(answer.body()).as(path).contains("\"error\":\"not acceptable\"", "\"field\":\"Accept\"");
        }
        assertThat(http.send("GET", "/", Map.of(), null).status()).isEqualTo(200);
    }

    /** Was: the container's text, blaming a malformed request line or header for a tag without ':'. */
    @Test
    void aMetricsTagTheEndpointRefusesIsNamedAsTheQuery() throws IOException {
        RawHttp.Response answer = http().send("GET", "/actuator/metrics/jvm.memory.used?tag=bad", Map.of(), null);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("\"field\":\"query\"", "name:value").doesNotContain("request line");
    }

    /** Was: /index.html/, /dashboard.css/ and /actuator/health/ served as the path without the '/'. */
    @Test
    void aTrailingSlashIsRefusedOnEveryPathButTheRoot() throws IOException {
        RawHttp http = http();
        for (String path : List.of("/index.html/", "/dashboard.css/", "/actuator/health/", "/api/v1/teams/")) {
            RawHttp.Response answer = http.send("GET", path, Map.of(), null);
            assertThat(answer.status()).as(path).isEqualTo(400);
            assertThat(answer.body()).as(path).contains("\"field\":\"path\"", "ends in '/'");
        }
    }

    /** Was: 202, waiting for ever at its maxGpus, where the same ask as a fraction of 3 GPUs was refused. */
    @Test
    void aMibRequestBeyondTheTeamsMaximumIsRefused() throws IOException {
        RawHttp http = http();
        RawHttp.Response answer = http.send(
                "POST",
                "/api/v1/teams/capped/jobs",
                Map.of(),
                "{\"name\": \"mib\", \"gpu\": {\"memoryMib\": 81920}, \"gpuDevices\": 3}");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("\"field\":\"gpuDevices\"", "may hold at most 2.0 (maxGpus)");
        assertThat(http.send("GET", "/api/v1/teams/capped/jobs", Map.of(), null).body())
                .isEqualTo("[]");
    }

    /**
     * Was: 200, the parameter dropped in silence (the API's routes already refused one they do not take). A metric's
     * {@code tag}, which the actuator reads, is still taken, as often as the caller gives one.
     */
    @Test
    void aQueryParameterAPageOrTheActuatorDoesNotTakeIs400NamingIt() throws IOException {
        RawHttp http = http();
        Map<String, String> refused = Map.of(
                "/index.html?x=1", "x",
                "/?v=2", "v",
                "/dashboard.css?v=2", "v",
                "/v3/api-docs?group=x", "group",
                "/actuator/health?verbose=true", "verbose",
                "/actuator/health/liveness?x", "x",
                "/actuator/info?x=1", "x",
                "/actuator/metrics?name=jvm", "name",
                "/actuator/metrics/jvm.memory.used?tags=area:heap", "tags");
        refused.forEach((path, name) -> {
            try {
                RawHttp.Response answer = http.send("GET", path, Map.of(), null);
                assertThat(answer.status()).as(path).isEqualTo(400);
                assertThat(answer.body())
                        .as(path)
                        .contains("\"field\":\"" + name + "\"", "is not a query parameter of this path; it takes");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(http.send("GET", "/actuator/metrics/jvm.memory.used?tag=area:heap", Map.of(), null)
                        .status())
                .isEqualTo(200);
        assertThat(http.send(
                                "GET",
                                "/actuator/metrics/jvm.memory.used?tag=area:heap&tag=application:quotient",
                                Map.of(),
                                null)
                        .status())
                .as("tag given twice")
                .isEqualTo(200);
        assertThat(http.send("GET", "/actuator/metrics/jvm.memory.used?tag=area:heap&tag", Map.of(), null)
                        .body())
                .contains("\"field\":\"tag\"", "without a value");
    }

    /** Was: the body ignored, and the job deleted (DELETE) or the answer given as if none were sent (GET). */
    @Test
    void aBodyOnGetHeadOrDeleteIs400AndChangesNothing() throws IOException {
        RawHttp http = http();
        assertThat(http.send("POST", "/api/v1/teams/probe/jobs", Map.of(), "{\"name\": \"kept\"}")
                        .status())
                .isEqualTo(201);
        for (String[] call : new String[][] {
            {"DELETE", "/api/v1/teams/probe/jobs/kept"},
            {"GET", "/api/v1/teams/probe/jobs"},
            {"GET", "/"},
            {"GET", "/actuator/health"},
            {"OPTIONS", "/api/v1/teams"}
        }) {
            RawHttp.Response answer = http.send(call[0], call[1], Map.of(), "{\"keep\": true}");
            assertThat(answer.status()).as(call[0] + " " + call[1]).isEqualTo(400);
            assertThat(answer.body())
                    .as(call[0] + " " + call[1])
                    .contains("\"field\":null", call[0] + " takes no body");
        }
        RawHttp.Response chunked = http.sendRaw(
                "DELETE /api/v1/teams/probe/jobs/kept HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n",
                "2\r\n{}\r\n0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(chunked.status()).as("a chunked body").isEqualTo(400);
        RawHttp.Response empty = http.sendRaw(
                "GET /api/v1/teams/probe/jobs/kept HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                        + "Content-Length: 0\r\n\r\n",
                new byte[0]);
        assertThat(empty.status())
                .as("Content-Length: 0 is no body; the job was kept")
                .isEqualTo(200);
    }
}

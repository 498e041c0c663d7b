package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The fourth round of hostile probing, over real HTTP: an {@code Accept} charset the service does not write, the
 * pages' and the actuator's bare refusals, a trailing '/', and a MiB request beyond the team's maxGpus.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "quotient.cluster.mode=embedded")
class HostileNegotiationTest {

    private static final String JOB = "{\"name\": \"cs\", \"gpu\": {\"count\": 1}}";

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(
                registry,
                "teams:\n  - name: cs\n    guaranteedGpus: 4\n  - name: capped\n    guaranteedGpus: 2\n"
                        + "    maxGpus: 2\n");
    }

    /** Was: the job recorded, then 500 (the JSON writer had no UTF-16 or Latin-1 to write in). */
    @Test
    void anAcceptCharsetOtherThanUtf8Is406AndRecordsNothing() throws IOException {
        RawHttp http = new RawHttp(port);
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
        RawHttp http = new RawHttp(port);
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
        RawHttp.Response answer =
                new RawHttp(port).send("POST", "/api/v1/teams/cs/jobs", Map.of("Expect", "fancy"), JOB);
        assertThat(answer.status()).isEqualTo(417);
        assertThat(answer.body()).contains("\"field\":\"Expect\"", "100-continue");
    }

    /** Was: 200 with the CSV in UTF-8, labelled text/csv;charset=UTF-8, for a client that asked for UTF-16. */
    @Test
    void theUsageReportInAnotherCharsetIs406NamingBothTypes() throws IOException {
        RawHttp.Response answer =
                new RawHttp(port).send("GET", "/api/v1/usage", Map.of("Accept", "text/csv; charset=utf-16"), null);
        assertThat(answer.status()).isEqualTo(406);
        assertThat(answer.body()).contains("application/json or text/csv only, written in UTF-8");
    }

    /** Was: 406 with no body and no Content-Type on the dashboard; the actuator's said "refused". */
    @Test
    void aPageOrTheActuatorThatCannotAnswerInTheAcceptedTypeSaysSoInJson() throws IOException {
        RawHttp http = new RawHttp(port);
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
        RawHttp.Response answer =
                new RawHttp(port).send("GET", "/actuator/metrics/jvm.memory.used?tag=bad", Map.of(), null);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("\"field\":\"query\"", "name:value").doesNotContain("request line");
    }

    /** Was: /index.html/, /dashboard.css/ and /actuator/health/ served as the path without the '/'. */
    @Test
    void aTrailingSlashIsRefusedOnEveryPathButTheRoot() throws IOException {
        RawHttp http = new RawHttp(port);
        for (String path : List.of("/index.html/", "/dashboard.css/", "/actuator/health/", "/api/v1/teams/")) {
            RawHttp.Response answer = http.send("GET", path, Map.of(), null);
            assertThat(answer.status()).as(path).isEqualTo(400);
            assertThat(answer.body()).as(path).contains("\"field\":\"path\"", "ends in '/'");
        }
    }

    /** Was: 202, waiting for ever at its maxGpus, where the same ask as a fraction of 3 GPUs was refused. */
    @Test
    void aMibRequestBeyondTheTeamsMaximumIsRefused() throws IOException {
        RawHttp http = new RawHttp(port);
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
}

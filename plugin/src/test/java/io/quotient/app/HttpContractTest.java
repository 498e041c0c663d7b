package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.rest.SecurityHeadersFilter;
import io.quotient.adapters.rest.StatusErrors;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What the whole service answers over real HTTP, beyond the handlers: content negotiation decided before anything is
 * recorded, JSON error bodies for every refusal (Tomcat's own included) with no Java or server internals, the
 * unknown team named before the unknown job, and the browser security headers.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "quotient.cluster.mode=embedded")
class HttpContractTest {

    private static final String JOB = "{\"name\": \"neg\", \"gpu\": {\"count\": 1}}";

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, "teams:\n  - name: neg\n    guaranteedGpus: 4\n");
    }

    @Test
    void aClientThatAcceptsNoJsonGets406AndNothingIsPlaced() throws IOException {
        RawHttp http = new RawHttp(port);
        for (String accept : List.of("application/xml", "text/html")) {
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
        RawHttp.Response placed =
                http.send("POST", "/api/v1/teams/neg/jobs", Map.of("Accept", "application/json"), JOB);
        assertThat(placed.status()).as("the first real deploy is not a 409").isEqualTo(201);
    }

    @Test
    void refusalsOfTheContainerAndUnservedPathsAnswerInJsonWithoutInternals() throws IOException {
        RawHttp http = new RawHttp(port);
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
        RawHttp http = new RawHttp(port);
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
        RawHttp http = new RawHttp(port);
        for (String method : List.of("GET", "DELETE")) {
            RawHttp.Response answer = http.send(method, "/api/v1/teams/team-z/jobs/x", Map.of(), null);
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.body()).as(method).contains("\"error\":\"unknown team\"", "\"field\":\"team\"");
        }
    }

    @Test
    void everyAnswerCarriesTheBrowserSecurityHeaders() throws IOException {
        RawHttp http = new RawHttp(port);
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

    @Test
    void theOpenApiDescriptionTypesErrorAnswersAsErrorBodies() throws IOException {
        String api =
                new RawHttp(port).send("GET", "/v3/api-docs", Map.of(), null).body();
        String deploy = api.substring(api.indexOf("\"post\""));
        String errorRef = "\"$ref\":\"#/components/schemas/ErrorBody\"";
        for (String code : List.of("\"400\"", "\"404\"", "\"409\"")) {
            String response = deploy.substring(deploy.indexOf(code), deploy.indexOf("}}}", deploy.indexOf(code)));
            assertThat(response).as(code).contains(errorRef).doesNotContain("JobView");
        }
    }
}

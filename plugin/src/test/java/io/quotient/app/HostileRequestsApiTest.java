package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * The request bodies of issue 31, sent to the whole service on the embedded 4 × 10-GPU cluster as a hostile tenant
 * would: each is refused with a 4xx JSON answer naming the field, naming no Java internals, and creating nothing.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
class HostileRequestsApiTest {

    private static final Path TEAMS = teamsFile();
    /** What an error body must never show: Java types, parser tokens, reader limits, Spring's error page. */
    private static final List<String> INTERNALS = List.of(
            "java.",
            "javax.",
            "com.fasterxml",
            "Exception",
            "JsonToken",
            "START_ARRAY",
            "START_OBJECT",
            "VALUE_",
            "StreamReadConstraints",
            "Whitelabel",
            "io.quotient",
            "jakarta.");

    @Autowired
    private MockMvc mvc;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) {
        registry.add("quotient.teams-file", TEAMS::toString);
    }

    @ParameterizedTest
    @MethodSource("io.quotient.app.HostileBodies#all")
    void eachHostileBodyIsRefusedNamingTheFieldAndCreatesNothing(String body, String field, String reason)
            throws Exception {
        MvcResult result = deploy("hostile", body).andReturn();
        String answer = result.getResponse().getContentAsString();
        assertThat(result.getResponse().getStatus()).as(answer).isEqualTo(400);
        assertThat(result.getResponse().getContentType()).startsWith(MediaType.APPLICATION_JSON_VALUE);
        assertThat(answer).as("no Java internals").doesNotContain(INTERNALS);
        assertThat(JsonPath.<String>read(answer, "$.field")).isEqualTo(field);
        assertThat(JsonPath.<String>read(answer, "$.reason")).contains(reason);
        assertThat(JsonPath.<String>read(answer, "$.hint")).isNotBlank();
        mvc.perform(get("/api/v1/teams/hostile/jobs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(0)));
    }

    /** A kind with a control character, a space or a letter of another alphabet was read as the kind it resembles. */
    @ParameterizedTest
    @ValueSource(strings = {"notebook\u0000", " train", "inference\n", "tra\u0131n", "notebook\u200B"})
    void aKindThatOnlyLooksLikeOneIsRefusedAndCreatesNothing(String kind) throws Exception {
        String body = "{\"name\":\"a\",\"gpu\":{\"count\":1},\"kind\":\""
                + kind.replace("\n", "\\n").replace("\u0000", "\\u0000") + "\"}";
        deploy("hostile", body)
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("kind"))
                .andExpect(jsonPath("$.reason").value(containsString("train, notebook or inference")));
        // was: "the Content-Type header is not a media type", for a request that sent none
        mvc.perform(post("/api/v1/teams/hostile/jobs"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(jsonPath("$.field").value("Content-Type"))
                .andExpect(jsonPath("$.reason")
                        .value("the request has no Content-Type; a job is sent as application/json"));
        mvc.perform(get("/api/v1/teams/hostile/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    /** A reason quoting a whole value is cut: a 100,000-character kind or image is not echoed back. */
    @Test
    void aReasonNeverEchoesAWholePayload() throws Exception {
        for (String field : List.of("kind", "image")) {
            String body = "{\"name\":\"a\",\"" + field + "\":\"" + "y".repeat(100_000) + "\"}";
            MvcResult result = deploy("hostile", body)
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.field").value(field))
                    .andReturn();
            String reason = JsonPath.read(result.getResponse().getContentAsString(), "$.reason");
            assertThat(reason).as(field).hasSizeLessThan(1100).contains("characters left out");
        }
        mvc.perform(get("/api/v1/teams/hostile/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    /** A field name of 40,000 characters is named by its start and end, not echoed whole in field and hint. */
    @Test
    void aLongFieldNameIsCutInTheAnswer() throws Exception {
        for (String map : List.of("labels", "annotations")) {
            String key = "a".repeat(40_000);
            MvcResult result = deploy("hostile", "{\"name\":\"a\",\"" + map + "\":{\"" + key + "\":\"1\"}}")
                    .andExpect(status().isBadRequest())
                    .andReturn();
            String answer = result.getResponse().getContentAsString();
            assertThat(answer).as(map).hasSizeLessThan(3_000);
            assertThat(JsonPath.<String>read(answer, "$.field"))
                    .as(map)
                    .startsWith(map + ".aaa")
                    .contains("characters left out")
                    .hasSizeLessThan(300);
        }
        MvcResult tooLong = deploy("hostile", "{\"name\":\"a\",\"labels\":{\"" + "b".repeat(100_000) + "\":\"1\"}}")
                .andExpect(status().isBadRequest())
                .andReturn();
        assertThat(JsonPath.<String>read(tooLong.getResponse().getContentAsString(), "$.reason"))
                .contains("a field name of more than 50,000 characters")
                .doesNotContain("strings of at most");
        mvc.perform(get("/api/v1/teams/hostile/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    /**
     * A query number is read as written or refused: the binding trimmed spaces, read '+5' and other scripts' digits
     * as 5, took the first of two values and the default for an empty one.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "events=%EF%BC%95",
                "events=%D9%A5",
                "events=%205",
                "events=5%0A",
                "events=%2B5",
                "events=0x5",
                "events=5&events=6",
                "events=",
                "events"
            })
    void aQueryNumberNotWrittenInDigitsOnceIsRefused(String query) throws Exception {
        mvc.perform(get("/api/v1/dashboard?" + query))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("events"));
    }

    /** Only application/json is a job: not another +json type, and a Content-Type that is no media type is named. */
    @Test
    void aContentTypeOtherThanJsonIsA415AndCreatesNothing() throws Exception {
        for (String type : List.of("application/merge-patch+json", "application/json-patch+json", ";;;/")) {
            MvcResult result = mvc.perform(post("/api/v1/teams/hostile/jobs")
                            .header("Content-Type", type)
                            .content("{\"name\":\"a\",\"gpu\":{\"count\":1}}"))
                    .andExpect(status().isUnsupportedMediaType())
                    .andExpect(jsonPath("$.error").value("unsupported media type"))
                    .andExpect(jsonPath("$.field").value("Content-Type"))
                    .andReturn();
            assertThat(result.getResponse().getContentAsString())
                    .as(type)
                    .doesNotContain(INTERNALS)
                    .doesNotContain("mimeType");
        }
        mvc.perform(get("/api/v1/teams/hostile/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    @Test
    void aBodyOverTheLimitIsAnswered413InJsonAndCreatesNothing() throws Exception {
        String body = "{\"name\":\"a\",\"env\":{\"A\":\"" + "x".repeat(1_100_000) + "\"}}";
        deploy("hostile", body)
                .andExpect(status().isPayloadTooLarge())
                .andExpect(jsonPath("$.error").value("request too large"))
                .andExpect(jsonPath("$.reason").value(containsString("1048576 bytes")));
        mvc.perform(get("/api/v1/teams/hostile/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    @Test
    void aQueryParameterOfTheWrongTypeIsA400NamingIt() throws Exception {
        for (String events : List.of("abc", "99999999999", "1.5")) {
            MvcResult result = mvc.perform(get("/api/v1/dashboard").param("events", events))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.field").value("events"))
                    .andExpect(jsonPath("$.reason").value(containsString("whole number")))
                    .andReturn();
            assertThat(result.getResponse().getContentAsString()).doesNotContain(INTERNALS);
        }
    }

    /** Without an admission port the webhooks are served nowhere: not on the API port, where no token is asked. */
    @Test
    void theAdmissionEndpointsAreNotServedWithoutAnAdmissionPort() throws Exception {
        for (String path :
                List.of("/admission/gpujobs", "/admission/workloads/mutate", "/admission/workloads/validate")) {
            mvc.perform(post(path)
                            .contentType(MediaType.APPLICATION_JSON)
                            .content("{\"kind\":\"AdmissionReview\",\"kind\":\"AdmissionReview\"} {}"))
                    .andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.error").value("not found"));
        }
    }

    @Test
    void anUnknownPathOrMethodIsAnsweredInJson() throws Exception {
        for (MvcResult result : List.of(
                mvc.perform(get("/api/v1/nothing-here"))
                        .andExpect(status().isNotFound())
                        .andExpect(jsonPath("$.error").value("not found"))
                        .andReturn(),
                mvc.perform(MockMvcRequestBuilders.put("/api/v1/teams/hostile/jobs"))
                        .andExpect(status().isMethodNotAllowed())
                        .andExpect(jsonPath("$.hint").value(containsString("GET")))
                        .andReturn())) {
            assertThat(result.getResponse().getContentAsString()).doesNotContain(INTERNALS);
        }
    }

    /** Issue 31 (8): a job no node could ever hold is recorded, and told apart from an ordinary wait. */
    @Test
    void aJobNoNodeCouldEverHoldIsAcceptedAsUnschedulable() throws Exception {
        deploy("shapes", "{\"name\":\"too-many\",\"gpu\":{\"count\":11}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reasonCode").value("Unschedulable"))
                .andExpect(jsonPath("$.reason").value(containsString("cannot run on this cluster")));
        deploy("shapes", "{\"name\":\"too-big\",\"gpu\":{\"memoryMib\":100000}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reasonCode").value("Unschedulable"));
        deploy("shapes", "{\"name\":\"no-model\",\"gpu\":{\"count\":1},\"gpuModels\":[\"H100-NOWHERE\"]}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reasonCode").value("Unschedulable"));
        deploy("shapes", "{\"name\":\"wide\",\"template\":\"pytorchjob\",\"replicas\":5,\"gpu\":{\"count\":1}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reasonCode").value("Unschedulable"))
                .andExpect(jsonPath("$.reason").value(containsString("needs 5 nodes")));
        // an ordinary wait: the team's guarantee (1) is used and a notebook (non-preemptible) may not borrow
        deploy("shapes", "{\"name\":\"fits\",\"template\":\"notebook\",\"gpu\":{\"count\":1}}")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.reasonCode").value(nullValue()));
        deploy("shapes", "{\"name\":\"waits\",\"template\":\"notebook\",\"gpu\":{\"count\":1}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reasonCode").value("Waiting"));
    }

    /** Issue 31 (3): a value with line breaks is logged as one line escaped; a team with them is refused unlogged. */
    @Test
    void valuesWithLineBreaksAreLoggedOnOneLineEscaped(CapturedOutput output) throws Exception {
        mvc.perform(post("/api/v1/teams/{team}/jobs", "evil\r\nINFO forged\u0000")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"a\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("path"));
        deploy("hostile", "{\"name\":\"a\",\"template\":\"x\\nERROR forged line\"}")
                .andExpect(status().isBadRequest());
        // the team with line breaks never reaches a handler (the path is not canonical), so it is not logged at all
        assertThat(output.getOut())
                .contains("x\\nERROR forged line")
                .doesNotContain("\nINFO forged")
                .doesNotContain("\nERROR forged line");
    }

    private ResultActions deploy(String team, String body) throws Exception {
        return mvc.perform(post("/api/v1/teams/" + team + "/jobs")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    private static Path teamsFile() {
        String yaml = "teams:\n"
                + "  - name: hostile\n    guaranteedGpus: 4\n    maxGpus: 4\n    maxMinRuntimeSeconds: 600\n"
                + "  - name: shapes\n    guaranteedGpus: 1\n";
        try {
            Path file = Files.createTempFile("quotient-teams", ".yaml");
            file.toFile().deleteOnExit();
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

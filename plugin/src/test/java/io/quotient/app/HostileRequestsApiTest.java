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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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

    static Stream<Arguments> hostileBodies() {
        String longKey = "k".repeat(200);
        String bigValue = "v".repeat(60_000);
        return Stream.of(
                // a lax reader (5)
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1,\"count\":8}}", "gpu.count", "given twice"),
                Arguments.of("{\"name\":\"a\",\"name\":\"b\",\"gpu\":{\"count\":1}}", "name", "given twice"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}} {\"name\":\"b\"}", null, "goes on after"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}} x", null, "not valid JSON"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1.5}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1.0}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":\"\"}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"labels\":{\"k\":\"1\",\"k\":\"2\"}}", "labels.k", "given twice"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"secret\":\"s\",\"mountPath\":\"/v\","
                                + "\"readOnly\":\"yes\"}]}",
                        "volumes[0].readOnly",
                        "must be true or false"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":\"1\"}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":true}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":[1]}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"fraction\":\"0.5\"}}", "gpu.fraction", "must be a number"),
                // the reader took these strings for numbers before its coercion rules were asked
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"fraction\":\"NaN\"}}", "gpu.fraction", "must be a number"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5,\"fractionLimit\":\"Infinity\"}}",
                        "gpu.fractionLimit",
                        "must be a number"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"x\":\"a\\u0000b\"}}", "annotations.x", "NUL"),
                Arguments.of("{\"name\":\"a\",\"preemptible\":\"true\"}", "preemptible", "must be true or false"),
                Arguments.of("{\"name\":\"a\",\"preemptible\":1}", "preemptible", "must be true or false"),
                Arguments.of("{\"name\":1}", "name", "must be a string"),
                Arguments.of("{\"name\":\"a\",\"command\":[1]}", "command[0]", "must be a string"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":99999999999}}",
                        "gpu.count",
                        "from -2147483648 to 2147483647"),
                Arguments.of("{\"name\":\"a\",\"cpuMilli\":" + "9".repeat(30) + "}", "cpuMilli", "whole number"),
                // the reader's limits stop it before it knows the field
                Arguments.of("{\"name\":\"a\",\"cpuMilli\":" + "9".repeat(1500) + "}", null, "larger than"),
                Arguments.of("{\"name\":\"a\",\"gpu\":[]}", "gpu", "must be an object"),
                Arguments.of("[]", null, "must be a JSON object"),
                Arguments.of("{\"name\":\"a\",", null, "ends in the middle"),
                Arguments.of("", null, "missing"),
                // a raw NUL byte ended the body for the reader: the second object was dropped in silence
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}}\u0000{\"name\":\"b\"}", null, "NUL byte"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}}\u0000", null, "NUL byte (at byte 30)"),
                // nulls (6)
                Arguments.of("{\"name\":\"a\",\"command\":[\"sleep\",\"1\",null]}", "command[2]", "not null"),
                Arguments.of("{\"name\":\"a\",\"args\":[null]}", "args[0]", "not null"),
                Arguments.of("{\"name\":\"a\",\"env\":{\"A\":null}}", "env.A", "not null"),
                Arguments.of("{\"name\":\"a\",\"labels\":{\"foo\":null}}", "labels.foo", "not null"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"x\":null}}", "annotations.x", "not null"),
                Arguments.of("{\"name\":\"a\",\"imagePullSecrets\":[null]}", "imagePullSecrets[0]", "not null"),
                Arguments.of("{\"name\":\"a\",\"volumes\":[null]}", "volumes[0]", "must not be null"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":9223372036854775807}}",
                        "gpu.memoryMib",
                        "from 1 to 1048576"),
                // what Kubernetes or the runtime refuses (7)
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"\":\"v\"}}", "annotations", "empty key"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"a b\":\"v\"}}", "annotations.a b", "not a valid key"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"" + longKey + "\":\"v\"}}",
                        "annotations." + longKey,
                        "at most 63"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"Example.COM/x\":\"v\"}}",
                        "annotations.Example.COM/x",
                        "prefix"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"QUOTIENT.IO/team\":\"b\"}}",
                        "annotations.QUOTIENT.IO/team",
                        "set by Quotient"),
                Arguments.of(
                        "{\"name\":\"a\",\"labels\":{\"Quotient.io/job\":\"b\"}}",
                        "labels.Quotient.io/job",
                        "set by Quotient"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"a\":\"" + bigValue + "\",\"b\":\"" + bigValue
                                + "\",\"c\":\"" + bigValue + "\",\"d\":\"" + bigValue + "\",\"e\":\"" + bigValue
                                + "\"}}",
                        "annotations",
                        "256 KiB"),
                Arguments.of("{\"name\":\"a\",\"command\":[\"sh\\u0000\"]}", "command[0]", "NUL"),
                Arguments.of("{\"name\":\"a\",\"args\":[\"-c\",\"x\\u0000y\"]}", "args[1]", "NUL"),
                Arguments.of("{\"name\":\"a\",\"env\":{\"A\":\"\\u0000\"}}", "env.A", "NUL"),
                Arguments.of("{\"name\":\"a\",\"command\":[\"\"]}", "command[0]", "executable"),
                Arguments.of("{\"name\":\"a\",\"template\":\"\"}", "template", "must not be empty"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{}}", "gpu", "asks for no GPU"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":1000,\"memoryLimitMib\":9223372036854775807}}",
                        "gpu.memoryLimitMib",
                        "from 1 to 1048576"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\\u0000\"]}",
                        "gpuModels",
                        "control characters"),
                // a model pin no node can ever carry: a model is a nvidia.com/gpu.product label value
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100 SXM\"]}",
                        "gpuModels",
                        "'A100 SXM' (8 characters) is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"" + "m".repeat(64) + "\"]}",
                        "gpuModels",
                        "(64 characters) is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"../A100\"]}",
                        "gpuModels",
                        "is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\u202e\"]}",
                        "gpuModels",
                        "is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5},\"gpuModels\":[" + models(65) + "]}",
                        "gpuModels",
                        "names 65 models; at most 64"),
                // a guarantee voided by a minimum runtime (2)
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":315360000}",
                        "minRuntimeSeconds",
                        "at most 3600 seconds are allowed on this cluster"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":9223372036854775807}",
                        "minRuntimeSeconds",
                        "at most 3600"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":601}",
                        "minRuntimeSeconds",
                        "at most 600 seconds are allowed for team hostile"),
                // values read other than written: a share finer than the thousandths it is kept in, a mount path
                // climbing out of itself, memory no Kubernetes quantity holds
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.0015}}", "gpu.fraction", "finer than a thousandth"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5,\"fractionLimit\":0.7505}}",
                        "gpu.fractionLimit",
                        "at most three decimals"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\","
                                + "\"mountPath\":\"/x/../../etc\"}]}",
                        "volumes[0].mountPath",
                        "'..' segments"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\",\"mountPath\":\"/a/..\"}]}",
                        "volumes[0].mountPath",
                        "'..' segments"),
                Arguments.of(
                        "{\"name\":\"a\",\"memoryMib\":9223372036854775807}", "memoryMib", "at most 8796093022207"),
                // more than the team may ever hold (8)
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":5}}", "gpu.count", "maxGpus"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1000000}}", "gpu.count", "at most 1024"));
    }

    @ParameterizedTest
    @MethodSource("hostileBodies")
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

    /** {@code count} distinct valid model names, as JSON strings separated by commas. */
    private static String models(int count) {
        return String.join(
                ",",
                Stream.iterate(0, i -> i + 1)
                        .limit(count)
                        .map(i -> "\"GPU-" + i + "\"")
                        .toList());
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

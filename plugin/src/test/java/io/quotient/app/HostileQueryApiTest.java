package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * Hostile query strings on the whole service (embedded cluster): days at the ends of the calendar or with control
 * characters, and query parameters a path does not take, are each refused with a 400 naming the parameter, in JSON,
 * and change nothing; a request that is not refused would have been answered with figures the caller did not ask for
 * (or, at the calendar's ends, with a 500).
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
class HostileQueryApiTest {

    @Autowired
    private MockMvc mvc;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, "teams:\n  - name: query\n    guaranteedGpus: 4\n");
    }

    static Stream<Arguments> badDays() {
        return Stream.of(
                Arguments.of("to", "-999999999-01-01", Map.of()),
                Arguments.of("to", "+999999999-12-31", Map.of("from", "+999999999-12-30", "bucket", "day")),
                Arguments.of("from", "+10000-01-01", Map.of()),
                Arguments.of("from", "2026-12-01\u0000", Map.of()),
                Arguments.of("to", "\n2026-12-01", Map.of()));
    }

    /** ISO's signed years reach the ends of LocalDate, where the range's arithmetic failed (500); trim ate a NUL. */
    @ParameterizedTest
    @MethodSource("badDays")
    void aDayNotWrittenAsYyyyMmDdIsRefusedNamingItsParameter(String field, String value, Map<String, String> more)
            throws Exception {
        MockHttpServletRequestBuilder request = get("/api/v1/usage").param(field, value);
        more.forEach(request::param);
        MvcResult result = mvc.perform(request)
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("invalid request"))
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.reason").value(containsString("write it as YYYY-MM-DD")))
                .andReturn();
        assertThat(result.getResponse().getContentType()).startsWith(MediaType.APPLICATION_JSON_VALUE);
    }

    /** A misspelt parameter was dropped in silence: ?groupby=job answered per team, ?frm= the last 7 days. */
    @ParameterizedTest
    @CsvSource({
        "/api/v1/usage?groupby=job, groupby, 'bucket, from, groupBy, to'",
        "/api/v1/usage?from=2026-12-01&frm=2026-01-01, frm, 'bucket, from, groupBy, to'",
        "/api/v1/dashboard?event=5, event, events",
        "/api/v1/teams?team=query, team, none",
        "/api/v1/cluster?x, x, none",
        "/api/v1/teams/query/jobs?team%3D=x, team=, none"
    })
    void aQueryParameterThePathDoesNotTakeIsRefusedNamingIt(String uri, String field, String taken) throws Exception {
        mvc.perform(get(URI.create(uri)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.reason").value(containsString("takes " + taken)));
    }

    /** On a deploy the refusal comes before the handler: nothing is recorded, whatever the body. */
    @ParameterizedTest
    @ValueSource(strings = {"team=other", "dryRun=true", "name=b"})
    void aDeployWithAnUnknownQueryParameterCreatesNothing(String query) throws Exception {
        mvc.perform(post("/api/v1/teams/query/jobs?" + query)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"a\", \"gpu\": {\"count\": 1}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value(query.substring(0, query.indexOf('='))));
        mvc.perform(get("/api/v1/teams/query/jobs")).andExpect(status().isOk()).andExpect(jsonPath("$", hasSize(0)));
    }

    static Stream<Arguments> lookalikeChoices() {
        return Stream.of(
                Arguments.of("groupBy", "team\u0000"),
                Arguments.of("groupBy", " job"),
                Arguments.of("groupBy", "departme\u006Et\n"),
                Arguments.of("bucket", "day\t"),
                Arguments.of("bucket", "\u0068our\u200B"),
                Arguments.of("groupBy", "job\u0130"));
    }

    /** A grouping or bucket with a control character, a space or a letter of another alphabet was read as the name. */
    @ParameterizedTest
    @MethodSource("lookalikeChoices")
    void aChoiceThatOnlyLooksLikeANameIsRefusedNamingItsParameter(String field, String value) throws Exception {
        mvc.perform(get("/api/v1/usage").param(field, value))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("invalid request"))
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.reason").value(containsString("use one of")));
    }

    /** A count of events outside 0..500 was clamped in silence: -1 answered none, 100000 answered 500 as if all. */
    @ParameterizedTest
    @ValueSource(strings = {"-1", "501", "100000"})
    void aCountOfEventsOutsideItsRangeIsRefused(String events) throws Exception {
        mvc.perform(get("/api/v1/dashboard").param("events", events))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("events"))
                .andExpect(jsonPath("$.reason").value(containsString("must be from 0 to 500")));
    }

    /**
     * A query the container cannot decode or name was answered with the defaults: Tomcat drops a parameter with
     * invalid percent-encoding, so {@code ?groupBy=%zzjob} was grouped by team; {@code ?=5} names nothing; twenty
     * digits are no number any parameter takes, not a number in other digits.
     */
    @ParameterizedTest
    @CsvSource({
        "/api/v1/usage, groupBy=%zzjob, groupBy, 'is not valid percent-encoding'",
        "/api/v1/usage, bucket=%zz, bucket, 'is not valid percent-encoding'",
        "/api/v1/usage, from=2026-12-0%1, from, 'is not valid percent-encoding'",
        "/api/v1/usage, gr%zzoupBy=job, query, 'is not valid percent-encoding'",
        "/api/v1/usage, =5, query, 'without a name'",
        "/api/v1/dashboard, events=00000000000000000005, events, 'more digits than any value it takes'"
    })
    void aQueryTheContainerWouldDropOrMisreadIsRefusedNamingIt(String path, String query, String field, String reason)
            throws Exception {
        mvc.perform(get(path).with(request -> {
                    request.setQueryString(query);
                    return request;
                }))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("invalid request"))
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.reason").value(containsString(reason)));
    }

    /** The parameters a path does take still work, spelt as documented (the dashboard's page sends these). */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "groupBy=job&bucket=day&from=2026-12-01&to=2026-12-02",
                "groupBy=team",
                "groupBy=Job&bucket=DAY",
                ""
            })
    void theDocumentedParametersAreStillTaken(String query) throws Exception {
        for (String uri : List.of(
                "/api/v1/usage?" + query,
                "/api/v1/dashboard?events=3",
                "/api/v1/dashboard?events=0",
                "/api/v1/dashboard?events=500")) {
            mvc.perform(get(uri)).andExpect(status().isOk());
        }
    }
}

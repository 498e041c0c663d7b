package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Only the canonical spelling of a path is served; every spelling the hostile probes used is refused. */
class CanonicalPathsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/api/v1/teams/team-a/jobs",
                "/api/v1/teams/a/jobs/j.1",
                "/v3/api-docs",
                "/swagger-ui/index.html",
                "/actuator/health/readiness",
                "/dashboard.html"
            })
    void canonicalPathsPass(String path) {
        assertThat(CanonicalPaths.problem(path)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/teams/team%2Da/jobs",
                "/api/v1/teams/team-%61/jobs",
                "/api/v1/teams/%74eam-a/jobs",
                "/api/v1/teams/team-a;x=1/jobs",
                "/api/v1/teams/team-a;/jobs",
                "/api/v1/teams/team-a/jobs;/x",
                "/admission/../api/v1/teams/team-a/jobs",
                "/api/v1/teams/./team-a/jobs",
                "/api//v1/teams/team-a/jobs",
                "/api/v1/teams/team-a/jobs/x%0Ay",
                "/api/v1/teams/team-a\\jobs",
                "/api/v1/teams/te am/jobs",
                "/api/v1/teams/tëam/jobs",
                "/api/v1/teams/team-a/jobs/\u0000",
                "api/v1/teams",
                "",
                "/api/v1/teams/team-a/jobs/..",
                // a trailing '/': the pages and the actuator answered it as the path without (/index.html/ was 200)
                "/api/v1/teams/team-a/jobs/",
                "/index.html/",
                "/actuator/health/",
                "/dashboard.css/"
            })
    void everyOtherSpellingIsRefusedWithAReason(String path) {
        assertThat(CanonicalPaths.problem(path))
                .hasValueSatisfying(reason -> assertThat(reason).isNotBlank());
    }

    @ParameterizedTest
    @ValueSource(ints = {CanonicalPaths.MAX_LENGTH + 1, 10_000})
    void overlongPathsAreRefused(int length) {
        assertThat(CanonicalPaths.problem("/" + "a".repeat(length - 1)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("longer than"));
    }
}

package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.access.AccessChecks;
import io.quotient.access.AccessDecision;
import io.quotient.access.Caller;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.TestPropertySource;

/**
 * The cross-tenant bypass, tried over real HTTP on the whole service with token access on: a service account of
 * team-b spells team-a every way the hostile probes did (and 600 random spellings more) and never reads, creates or
 * deletes team-a's jobs; every request that a team's handler answers was authorised for that team's namespace.
 */
@Import(HostilePathAccessTest.TokenAccess.class)
@TestPropertySource(properties = "spring.main.allow-bean-definition-overriding=true")
class HostilePathAccessTest extends EmbeddedServiceTest {

    private static final Map<String, String> AS_A = Map.of("Authorization", "Bearer token-a");
    private static final Map<String, String> AS_B = Map.of("Authorization", "Bearer token-b");
    private static final List<String> ASKED = new CopyOnWriteArrayList<>();
    private static final List<String> PROBED = List.of(
            "team%2Da",
            "team-%61",
            "%74eam-a",
            "team-a;x=1",
            "team-a;",
            "team%2da",
            "%74%65%61%6d%2d%61",
            "team-a%3B",
            "./team-a",
            "x/../team-a",
            "team-a/.",
            "team-a%00",
            "team-a%0A",
            "TEAM-A",
            "team-a%20",
            "team%252Da");

    /** Tokens token-a and token-b belong to service accounts of team-a and team-b; each may act in its namespace. */
    @TestConfiguration
    static class TokenAccess {
        @Bean
        @Primary
        AccessChecks tokenAccessChecks() {
            return new AccessChecks(
                    token -> token.matches("token-[ab]")
                            ? Optional.of(new Caller(
                                    "system:serviceaccount:team-" + token.charAt(6) + ":member",
                                    token,
                                    List.of(),
                                    Map.of()))
                            : Optional.empty(),
                    (caller, request) -> {
                        ASKED.add(request.namespace());
                        return caller.user().startsWith("system:serviceaccount:" + request.namespace() + ":")
                                ? AccessDecision.ALLOWED
                                : new AccessDecision(false, "no RoleBinding");
                    });
        }
    }

    @Test
    void everyProbedSpellingOfAnotherTeamIsRefusedAndChangesNothing() throws IOException {
        RawHttp http = http();
        deployAsTeamA(http, "kept");
        for (String team : PROBED) {
            for (String method : List.of("GET", "POST", "DELETE")) {
                String path = "/api/v1/teams/" + team + "/jobs" + (method.equals("DELETE") ? "/kept" : "");
                RawHttp.Response answer = http.send(method, path, AS_B, method.equals("POST") ? job("evil") : null);
                assertThat(answer.status())
                        .as(method + " " + path)
                        .isBetween(400, 499)
                        .isNotEqualTo(404);
                assertThat(answer.header("Content-Type"))
                        .as(method + " " + path)
                        .startsWith("application/json");
                assertThat(answer.body()).doesNotContain("\"kept\"", "\"evil\"");
            }
        }
        assertThat(names(http.send("GET", "/api/v1/teams/team-a/jobs", AS_A, null)
                        .body()))
                .as("team-a's jobs as they were")
                .containsExactly("kept");
        assertThat(http.send("GET", "/api/v1/teams/team-a/jobs", AS_B, null).status())
                .isEqualTo(403);
        assertThat(http.send("GET", "/api/v1/teams/team-b/jobs", AS_B, null).status())
                .isEqualTo(200);
    }

    /**
     * The methods and query strings the probes above leave out: HEAD reads as GET does and is refused as GET is;
     * OPTIONS answers the allowed methods and nothing of the team's; an unknown query parameter is refused only
     * after authorization, so another team's caller learns nothing from it (403, not 400) and changes nothing.
     */
    @Test
    void otherMethodsAndQueryStringsAreAuthorisedFirst() throws IOException {
        RawHttp http = http();
        deployAsTeamA(http, "held");
        for (String path : List.of("/api/v1/teams/team-a/jobs", "/api/v1/teams/team-a/jobs/held")) {
            assertThat(http.send("HEAD", path, AS_B, null).status())
                    .as("HEAD " + path)
                    .isEqualTo(403);
            RawHttp.Response options = http.send("OPTIONS", path, AS_B, null);
            assertThat(options.body()).as("OPTIONS " + path).doesNotContain("held");
            assertThat(http.send("GET", path + "?x=1", AS_B, null).status())
                    .as("GET " + path + "?x=1")
                    .isEqualTo(403);
            assertThat(http.send("DELETE", path + "?x=1", AS_B, null).status()).isIn(403, 405);
        }
        RawHttp.Response ownQuery = http.send("DELETE", "/api/v1/teams/team-a/jobs/held?force=1", AS_A, null);
        assertThat(ownQuery.status()).isEqualTo(400);
        assertThat(ownQuery.body()).contains("\"field\":\"force\"");
        assertThat(names(http.send("GET", "/api/v1/teams/team-a/jobs", AS_A, null)
                        .body()))
                .contains("held");
        // the other tests see team-a as they left it
        assertThat(http.send("DELETE", "/api/v1/teams/team-a/jobs/held", AS_A, null)
                        .status())
                .isEqualTo(200);
        assertThat(names(http.send("GET", "/api/v1/teams/team-a/jobs", AS_A, null)
                        .body()))
                .doesNotContain("held");
    }

    @Test
    void anUnknownTeamIsAuthorisedAsATeamOfThatName() throws IOException {
        RawHttp http = http();
        ASKED.clear();
        RawHttp.Response answer = http.send("DELETE", "/api/v1/teams/team-z/jobs/x", AS_B, null);
        assertThat(answer.status()).isEqualTo(403);
        assertThat(ASKED).containsExactly("team-z");
    }

    /**
     * Random spellings of a team route (percent-encoding of any character in either case, matrix parameters, dot
     * and empty segments, a case change): none reaches a handler of team-a for team-b's caller, and any request a team
     * handler answered was authorised for the namespace of the team the handler used.
     */
    @Test
    void noRandomSpellingReachesATeamsHandlerWithoutItsAccessReview() throws IOException {
        RawHttp http = http();
        Random random = new Random(20261202L);
        for (int i = 0; i < 600; i++) {
            String team = random.nextBoolean() ? "team-a" : "team-b";
            String path = "/api/v1/teams/" + spell(team, random) + "/jobs" + (random.nextBoolean() ? "" : "/j");
            String method = List.of("GET", "POST", "DELETE").get(random.nextInt(3));
            ASKED.clear();
            RawHttp.Response answer = http.send(method, path, AS_B, method.equals("POST") ? job("r" + i) : null);
            if (answer.status() < 400 || answer.status() == 404 || answer.status() == 409) {
                assertThat(ASKED)
                        .as(method + " " + path + " answered " + answer.status())
                        .isNotEmpty()
                        .allMatch("team-b"::equals);
            }
            if (team.equals("team-a")) {
                assertThat(answer.status()).as(method + " " + path).isIn(400, 403, 405);
            }
        }
        assertThat(names(http.send("GET", "/api/v1/teams/team-a/jobs", AS_A, null)
                        .body()))
                .allMatch(name -> !name.startsWith("r"));
    }

    private static String spell(String team, Random random) {
        StringBuilder out = new StringBuilder();
        for (char c : team.toCharArray()) {
            int roll = random.nextInt(10);
            if (roll == 0) {
                String hex = String.format("%%%02X", (int) c);
                out.append(random.nextBoolean() ? hex : hex.toLowerCase(Locale.ROOT));
            } else if (roll == 1) {
                out.append(Character.toUpperCase(c));
            } else {
                out.append(c);
            }
        }
        return switch (random.nextInt(6)) {
            case 0 -> out + ";v=" + random.nextInt(9);
            case 1 -> "." + "/" + out;
            case 2 -> "x/../" + out;
            case 3 -> out + "/";
            default -> out.toString();
        };
    }

    private static void deployAsTeamA(RawHttp http, String name) throws IOException {
        assertThat(http.send("POST", "/api/v1/teams/team-a/jobs", AS_A, job(name))
                        .status())
                .as("team-a deploys " + name)
                .isEqualTo(201);
    }

    private static String job(String name) {
        return "{\"name\": \"" + name + "\", \"gpu\": {\"count\": 1}}";
    }

    private static List<String> names(String json) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("\"name\":\"([^\"]*)\"").matcher(json);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}

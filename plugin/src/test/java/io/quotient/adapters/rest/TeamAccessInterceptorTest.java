package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.access.AccessChecks;
import io.quotient.access.AccessDecision;
import io.quotient.access.Caller;
import io.quotient.core.model.Team;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.TeamsSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Authorization on the resolved route: the decoded path variables decide, an unknown team is asked about as a team of
 * that name, and a route without an authenticated caller or without a question to ask is refused.
 */
class TeamAccessInterceptorTest {

    private static final Caller ALICE = new Caller("system:serviceaccount:team-a:alice", "u1", List.of(), Map.of());
    private final List<String> asked = new ArrayList<>();
    private final TeamsSource teams = new TeamsSource() {
        @Override
        public Map<String, Team> teams() {
            return Map.of("team-a", Team.of("team-a", 4), "team-b", Team.of("team-b", 4));
        }

        @Override
        public TeamNamespaces namespaces() {
            return TeamNamespaces.of(Map.of("team-a", List.of("ns-a"), "team-b", List.of("ns-b")), null);
        }
    };
    private final AccessChecks checks = new AccessChecks(token -> Optional.empty(), (caller, request) -> {
        asked.add(request.verb() + " " + request.namespace());
        return request.namespace().equals("ns-a")
                ? AccessDecision.ALLOWED
                : new AccessDecision(false, "no RBAC binding");
    });
    private final TeamAccessInterceptor interceptor =
            new TeamAccessInterceptor(checks, teams, job -> Optional.of("ns-a"), new JsonRefusal(new ObjectMapper()));

    @Test
    void aTeamMemberMayDeployForItsTeamButNotForAnother() throws Exception {
        assertThat(call("POST", "team-a", null, ALICE).getStatus()).isEqualTo(200);
        MockHttpServletResponse refused = call("POST", "team-b", null, ALICE);
        assertThat(refused.getStatus()).isEqualTo(403);
        assertThat(refused.getContentAsString())
                .contains(
                        "system:serviceaccount:team-a:alice may not create" + " gpujobs.quotient.io in namespace ns-b",
                        "no RBAC binding",
                        "quotient-team-member");
        assertThat(call("DELETE", "team-a", "x", ALICE).getStatus()).isEqualTo(200);
        assertThat(asked).containsExactly("create ns-a", "create ns-b", "delete ns-a");
    }

    @Test
    void anUnknownTeamIsAskedAboutAsATeamOfThatNameNotWavedThrough() throws Exception {
        MockHttpServletResponse refused = call("GET", "team-z", null, ALICE);
        assertThat(refused.getStatus()).isEqualTo(403);
        assertThat(refused.getContentAsString()).contains("may not list gpujobs.quotient.io in namespace team-z");
        assertThat(asked).containsExactly("list team-z");
    }

    @Test
    void withoutAnAuthenticatedCallerATeamRouteIsRefused() throws Exception {
        MockHttpServletResponse refused = call("GET", "team-a", null, null);
        assertThat(refused.getStatus()).isEqualTo(401);
        assertThat(asked).isEmpty();
    }

    @Test
    void aMethodThatAsksNoQuestionIsRefusedOnATeamRoute() throws Exception {
        MockHttpServletResponse refused = call("OPTIONS", "team-a", null, ALICE);
        assertThat(refused.getStatus()).isEqualTo(403);
        assertThat(refused.getContentAsString()).contains("OPTIONS");
    }

    @Test
    void routesWithoutATeamAndOpenAccessPass() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/cluster");
        assertThat(interceptor.preHandle(request, new MockHttpServletResponse(), new Object()))
                .isTrue();
        TeamAccessInterceptor open = new TeamAccessInterceptor(
                AccessChecks.open(), teams, job -> Optional.empty(), new JsonRefusal(new ObjectMapper()));
        MockHttpServletRequest teamB = route("POST", "team-b", null, null);
        assertThat(open.preHandle(teamB, new MockHttpServletResponse(), new Object()))
                .isTrue();
        assertThat(asked).isEmpty();
    }

    private MockHttpServletResponse call(String method, String team, String job, Caller caller) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        boolean passed = interceptor.preHandle(route(method, team, job, caller), response, new Object());
        assertThat(passed).as("passes exactly when nothing was written").isEqualTo(response.getStatus() == 200);
        return response;
    }

    private static MockHttpServletRequest route(String method, String team, String job, Caller caller) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, "/any/spelling");
        Map<String, String> variables = new HashMap<>();
        variables.put(TeamAccessInterceptor.TEAM, team);
        if (job != null) {
            variables.put(TeamAccessInterceptor.JOB, job);
        }
        request.setAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, variables);
        if (caller != null) {
            request.setAttribute(AccessFilter.CALLER_ATTRIBUTE, caller);
        }
        return request;
    }
}

package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.access.AccessChecks;
import io.quotient.access.AccessDecision;
import io.quotient.access.Caller;
import io.quotient.core.scheduling.Team;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.TeamsSource;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The filter in front of every path: 401 without a valid token, 403 naming what was refused, probes open. */
class AccessFilterTest {

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
    private final AccessChecks checks = new AccessChecks(
            token -> token.equals("alice-token") ? Optional.of(ALICE) : Optional.empty(),
            (caller, request) -> {
                asked.add(request.verb() + " " + request.namespace());
                return request.namespace().equals("ns-a") ? AccessDecision.ALLOWED
                        : new AccessDecision(false, "no RBAC binding");
            });
    private final AccessFilter filter = new AccessFilter(checks, teams, job -> Optional.of("ns-a"), new ObjectMapper());

    @Test
    void withoutATokenTheAnswerIs401AndNothingRuns() throws Exception {
        MockHttpServletResponse response = call("POST", "/api/v1/teams/team-a/jobs", null);
        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getHeader("WWW-Authenticate")).startsWith("Bearer");
        assertThat(response.getContentAsString()).contains("no bearer token");
        assertThat(call("GET", "/", "Bearer stolen").getStatus()).as("any page").isEqualTo(401);
        assertThat(call("GET", "/v3/api-docs", null).getStatus()).isEqualTo(401);
    }

    @Test
    void aTeamMemberMayDeployForItsTeamButNotForAnother() throws Exception {
        assertThat(call("POST", "/api/v1/teams/team-a/jobs", "Bearer alice-token").getStatus()).isEqualTo(200);
        MockHttpServletResponse refused = call("POST", "/api/v1/teams/team-b/jobs", "Bearer alice-token");
        assertThat(refused.getStatus()).isEqualTo(403);
        assertThat(refused.getContentAsString()).contains("system:serviceaccount:team-a:alice may not create"
                + " gpujobs.quotient.io in namespace ns-b", "no RBAC binding", "quotient-team-member");
        assertThat(call("DELETE", "/api/v1/teams/team-a/jobs/x", "Bearer alice-token").getStatus()).isEqualTo(200);
        assertThat(asked).containsExactly("create ns-a", "create ns-b", "delete ns-a");
    }

    @Test
    void probesAndOpenAccessNeedNoToken() throws Exception {
        assertThat(call("GET", "/actuator/health/readiness", null).getStatus()).isEqualTo(200);
        assertThat(call("GET", "/actuator/prometheus", null).getStatus()).isEqualTo(200);
        AccessFilter open = new AccessFilter(AccessChecks.open(), teams, job -> Optional.empty(), new ObjectMapper());
        MockHttpServletResponse response = new MockHttpServletResponse();
        open.doFilter(new MockHttpServletRequest("POST", "/api/v1/teams/team-b/jobs"), response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(200);
    }

    private MockHttpServletResponse call(String method, String path, String authorization) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }
}

package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.access.AccessChecks;
import io.quotient.access.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The filter in front of every path: 401 without a valid token, the caller attached otherwise, probes open. */
class AccessFilterTest {

    private static final Caller ALICE = new Caller("system:serviceaccount:team-a:alice", "u1", List.of(), Map.of());
    private final AccessChecks checks = new AccessChecks(
            token -> token.equals("alice-token") ? Optional.of(ALICE) : Optional.empty(), (caller, request) -> {
                throw new AssertionError("the filter only authenticates; " + request.describe() + " was asked");
            });
    private final AccessFilter filter = new AccessFilter(checks, new JsonRefusal(new ObjectMapper()));

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
    void anAuthenticatedCallerPassesWithTheCallerAttachedAuthorizationIsTheRoutesJob() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/teams/team-b/jobs");
        request.addHeader("Authorization", "Bearer alice-token");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(chain.getRequest())
                .as("passed on to the route, where team-b is authorised")
                .isNotNull();
        assertThat(request.getAttribute(AccessFilter.CALLER_ATTRIBUTE)).isEqualTo(ALICE);
    }

    /** Was: the first line authenticated, though a proxy in front may have judged the request by the last. */
    @Test
    void twoAuthorizationLinesAre400NamingTheHeaderAndNothingRuns() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("DELETE", "/api/v1/teams/team-a/jobs/j");
        request.addHeader("Authorization", "Bearer alice-token");
        request.addHeader("Authorization", "Bearer bob-token");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentAsString()).contains("\"field\":\"Authorization\"", "more than once");
        assertThat(chain.getRequest()).as("the route never ran").isNull();
        assertThat(request.getAttribute(AccessFilter.CALLER_ATTRIBUTE)).isNull();
    }

    @Test
    void probesAndOpenAccessNeedNoToken() throws Exception {
        assertThat(call("GET", "/actuator/health/readiness", null).getStatus()).isEqualTo(200);
        assertThat(call("GET", "/actuator/prometheus", null).getStatus()).isEqualTo(200);
        AccessFilter open = new AccessFilter(AccessChecks.open(), new JsonRefusal(new ObjectMapper()));
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

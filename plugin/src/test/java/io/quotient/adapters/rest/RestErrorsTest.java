package io.quotient.adapters.rest;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.adapters.k8s.KubernetesUnreachableException;
import java.net.ConnectException;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.mock.http.MockHttpInputMessage;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** How failures below the use cases reach the user: an unreachable API server is "retry", not "the service broke". */
class RestErrorsTest {

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new FailingJobs())
            .setControllerAdvice(new RestErrors())
            .build();

    @Test
    void anUnreachableApiServerIsAnsweredServiceUnavailableWithRetryAfter() throws Exception {
        mvc.perform(delete("/jobs/unreachable"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.error").value("cluster unreachable"))
                .andExpect(jsonPath("$.reason")
                        .value(containsString("deleting Job team-a/j1 of job team-a/j1 failed:"
                                + " the API server could not be reached")))
                .andExpect(jsonPath("$.hint").value(containsString("send the same request again")));
    }

    @Test
    void anyOtherFailureIsStillAnInternalError() throws Exception {
        mvc.perform(delete("/jobs/broken"))
                .andExpect(status().isInternalServerError())
                .andExpect(header().doesNotExist("Retry-After"))
                .andExpect(jsonPath("$.error").value("internal error"))
                // the exception stays in the log: its class and message are the service's, not the user's
                .andExpect(jsonPath("$.reason").value("the service failed to complete the request"));
    }

    /** A chunked body cut by the size filter ends the reading with an I/O error, which Spring wraps: still 413. */
    @Test
    void aBodyCutAtTheLimitWhileStreamingIsAnswered413() {
        var unreadable = new HttpMessageNotReadableException(
                "I/O error while reading input message",
                new BodyTooLargeException(1024),
                new MockHttpInputMessage(new byte[0]));
        var answer = new RestErrors().unreadable(unreadable);
        Assertions.assertThat(answer.getStatusCode().value()).isEqualTo(413);
        Assertions.assertThat(answer.getBody().reason()).contains("longer than 1024 bytes");
    }

    /** Stands in for a use case whose call to the cluster failed. */
    @RestController
    static class FailingJobs {
        @DeleteMapping("/jobs/{how}")
        void delete(@PathVariable String how) {
            if (how.equals("unreachable")) {
                throw new KubernetesUnreachableException(
                        "deleting Job team-a/j1 of job team-a/j1 failed: the API server"
                                + " could not be reached (Failed to connect to /127.0.0.1:6443)",
                        new ConnectException("Connection refused"));
            }
            throw new IllegalStateException("a bug");
        }
    }
}

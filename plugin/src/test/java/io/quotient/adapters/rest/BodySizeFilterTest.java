package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The body size limit: a declared length is answered at once, a chunked body is counted as it is read. */
class BodySizeFilterTest {

    private final BodySizeFilter filter = new BodySizeFilter(100, new ObjectMapper());

    @Test
    void aDeclaredLengthOverTheLimitIsAnswered413WithoutCallingTheService() throws Exception {
        MockHttpServletRequest request = post("x".repeat(101));
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, (req, res) -> {
            throw new AssertionError("the service must not be called");
        });
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/json");
        assertThat(response.getContentAsString())
                .contains("\"error\":\"request too large\"")
                .contains("100 bytes");
    }

    @Test
    void aChunkedBodyIsCountedAsItIsReadAndStopsPastTheLimit() throws Exception {
        HttpServletRequest chunked = new HttpServletRequestWrapper(post("y".repeat(150))) {
            @Override
            public long getContentLengthLong() {
                return -1;
            }

            @Override
            public int getContentLength() {
                return -1;
            }
        };
        AtomicReference<Long> readBeforeFailure = new AtomicReference<>(0L);
        assertThatThrownBy(() -> filter.doFilter(chunked, new MockHttpServletResponse(), (req, res) -> {
                    var in = req.getInputStream();
                    while (in.read() >= 0) {
                        readBeforeFailure.set(readBeforeFailure.get() + 1);
                    }
                }))
                .isInstanceOf(BodyTooLargeException.class);
        assertThat(readBeforeFailure.get()).isEqualTo(100L);
    }

    @Test
    void aBodyWithinTheLimitIsReadWhole() throws Exception {
        MockHttpServletRequest request = post("z".repeat(100));
        AtomicReference<String> read = new AtomicReference<>();
        filter.doFilter(
                request,
                new MockHttpServletResponse(),
                (req, res) -> read.set(new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8)));
        assertThat(read.get()).hasSize(100);
    }

    @Test
    void aBodyInAnotherCharsetOrWithAContentCodingIsAnswered415WithoutCallingTheService() throws Exception {
        MockHttpServletRequest utf16 = post("{}");
        utf16.setContentType("application/json; charset=UTF-16");
        utf16.setCharacterEncoding("UTF-16");
        MockHttpServletRequest gzip = post("{}");
        gzip.addHeader("Content-Encoding", "gzip");
        for (MockHttpServletRequest request : new MockHttpServletRequest[] {utf16, gzip}) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            filter.doFilter(request, response, (req, res) -> {
                throw new AssertionError("the service must not be called");
            });
            assertThat(response.getStatus()).isEqualTo(415);
            assertThat(response.getContentAsString()).contains("\"error\":\"unsupported media type\"");
        }
    }

    @Test
    void aRequestWithoutABodyIsNotRefusedForItsCharset() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/teams");
        request.setCharacterEncoding("UTF-16");
        AtomicReference<Boolean> called = new AtomicReference<>(false);
        filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> called.set(true));
        assertThat(called.get()).isTrue();
    }

    @Test
    void anOverlongFormEndsTheBodyAtItsByte() {
        MockHttpServletRequest request = post("");
        request.setContent(new byte[] {'{', '"', 'a', (byte) 0xC0, (byte) 0xAF});
        assertThatThrownBy(() -> filter.doFilter(
                        request,
                        new MockHttpServletResponse(),
                        (req, res) -> req.getInputStream().readAllBytes()))
                .isInstanceOf(MalformedBodyException.class)
                .hasMessageContaining("not UTF-8")
                .hasMessageContaining("at byte 3");
    }

    private static MockHttpServletRequest post(String body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/teams/a/jobs");
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        request.setContentType("application/json");
        return request;
    }
}

package io.quotient.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies longer than the limit with 413 and a JSON {@link ErrorBody}, before they are kept in memory:
 * a declared {@code Content-Length} above the limit is answered at once, and a body without one (chunked) is counted
 * as it is read and ends with {@link BodyTooLargeException} at the first byte past the limit. A UTF-8 body (no
 * charset, or UTF-8) ends with {@link BodyNulException} at its first NUL byte, which the JSON reader would take for
 * the end of the body; other charsets (UTF-16) have NUL bytes in every character and are left to the reader.
 */
public final class BodySizeFilter extends OncePerRequestFilter {

    private final long maxBytes;
    private final ObjectMapper json;

    /** @param maxBytes the longest body read, in bytes ({@code quotient.api.max-body-bytes}) */
    public BodySizeFilter(long maxBytes, ObjectMapper json) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("quotient.api.max-body-bytes must be at least 1 (was " + maxBytes + ")");
        }
        this.maxBytes = maxBytes;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            // the body is not read: close the connection rather than drain what the client still sends
            response.setHeader("Connection", "close");
            json.writeValue(response.getOutputStream(), tooLarge(maxBytes));
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
    }

    /** The answer to a body longer than {@code limit} bytes. */
    static ErrorBody tooLarge(long limit) {
        return new ErrorBody(
                "request too large",
                null,
                "the request body is longer than " + limit + " bytes, the" + " most the service reads",
                "send a smaller body (a job request is a few kilobytes; large data"
                        + " belongs in volumes or config maps); nothing was created");
    }

    /** The request whose body stream counts the bytes read and fails past the limit. */
    private static final class Limited extends HttpServletRequestWrapper {

        private final long maxBytes;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                String charset = getCharacterEncoding();
                boolean utf8 = charset == null || charset.equalsIgnoreCase("UTF-8") || charset.equalsIgnoreCase("UTF8");
                stream = new Counting(super.getInputStream(), maxBytes, utf8);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding() == null ? "UTF-8" : getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(getInputStream(), encoding));
        }
    }

    private static final class Counting extends ServletInputStream {

        private final ServletInputStream in;
        private final long maxBytes;
        private final boolean refuseNul;
        private long read;

        Counting(ServletInputStream in, long maxBytes, boolean refuseNul) {
            this.in = in;
            this.maxBytes = maxBytes;
            this.refuseNul = refuseNul;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b == 0 && refuseNul) {
                throw new BodyNulException(read);
            }
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            for (int i = 0; refuseNul && i < n; i++) {
                if (buffer[offset + i] == 0) {
                    throw new BodyNulException(read + i);
                }
            }
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLargeException {
            read += n;
            if (read > maxBytes) {
                throw new BodyTooLargeException(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}

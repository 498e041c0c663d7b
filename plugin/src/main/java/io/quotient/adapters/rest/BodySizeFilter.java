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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets only bodies of JSON text in UTF-8 and within the size limit reach the JSON reader, checking their bytes as they
 * are read, before anything keeps them in memory. A declared {@code Content-Length} above the limit is answered 413
 * at once, and a body without one (chunked) ends with {@link BodyTooLargeException} at the first byte past the limit.
 * A body declared in another charset or with a content coding (on any of its header lines) is answered 415, one with
 * two Content-Type lines 400: JSON is exchanged in UTF-8 (RFC 8259,
 * section 8.1), and a reader that honoured some charsets and ignored others read a UTF-16 body as NUL bytes. A NUL byte
 * or a byte sequence UTF-8 does not allow ends the body with {@link MalformedBodyException}.
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
            refuse(response, HttpStatus.PAYLOAD_TOO_LARGE, tooLarge(maxBytes));
            return;
        }
        if (hasBody(request)
                && Collections.list(request.getHeaders(HttpHeaders.CONTENT_TYPE))
                                .size()
                        > 1) {
            // a reader takes the first and a proxy may take the last: one body, one media type
            refuse(
                    response,
                    HttpStatus.BAD_REQUEST,
                    new ErrorBody(
                            "invalid request",
                            "Content-Type",
                            "Content-Type is given more than once; a body has one media type",
                            "send one Content-Type: application/json header; nothing was changed"));
            return;
        }
        ErrorBody unreadable = unreadableDeclaration(request);
        if (unreadable != null) {
            refuse(response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, unreadable);
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
    }

    private void refuse(HttpServletResponse response, HttpStatus status, ErrorBody body) throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        // the body is not read: close the connection rather than drain what the client still sends
        response.setHeader("Connection", "close");
        json.writeValue(response.getOutputStream(), body);
    }

    /**
     * The answer to a body that cannot be read as UTF-8 JSON text by its headers alone, or null: a charset other than
     * UTF-8, or a content coding other than identity. Requests without a body are not refused for their headers.
     */
    private static ErrorBody unreadableDeclaration(HttpServletRequest request) {
        if (!hasBody(request)) {
            return null;
        }
        String charset = declaredCharset(request.getContentType());
        if (charset != null && !charset.equalsIgnoreCase("UTF-8") && !charset.equalsIgnoreCase("UTF8")) {
            return unsupported(
                    "Content-Type",
                    "Content-Type declares a charset other than UTF-8; the API reads JSON in UTF-8 only");
        }
        // every line and every listed coding counts: "identity" then "gzip" on a second line is a gzip body
        boolean coded = Collections.list(request.getHeaders(HttpHeaders.CONTENT_ENCODING)).stream()
                .flatMap(line -> Arrays.stream(line.split(",", -1)))
                .map(String::trim)
                .anyMatch(coding -> !coding.isEmpty() && !coding.equalsIgnoreCase("identity"));
        if (coded) {
            return unsupported(
                    "Content-Encoding",
                    "Content-Encoding declares a coding (compression); the API reads bodies as sent, uncoded");
        }
        return null;
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }

    private static ErrorBody unsupported(String header, String reason) {
        return new ErrorBody(
                "unsupported media type",
                header,
                reason,
                "send the JSON body in UTF-8 as it is: Content-Type: application/json, no Content-Encoding; nothing"
                        + " was changed");
    }

    /**
     * The charset the Content-Type header names, or null: read from the header itself, since the request's character
     * encoding is forced to UTF-8 by Spring's encoding filter before this one runs. A header that is no media type is
     * left to the route's own check (415 naming it).
     */
    private static String declaredCharset(String contentType) {
        if (contentType == null) {
            return null;
        }
        try {
            String charset = MediaType.parseMediaType(contentType).getParameter("charset");
            // a quoted value ("utf-8") names the same charset
            return charset == null ? null : charset.replace("\"", "").trim();
        } catch (InvalidMediaTypeException e) {
            return null;
        }
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
                stream = new Counting(super.getInputStream(), maxBytes);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }

    private static final String NOT_UTF8 =
            ": JSON text is UTF-8, without overlong forms, surrogates or stray or missing continuation bytes";

    private static final class Counting extends ServletInputStream {

        private final ServletInputStream in;
        private final long maxBytes;
        private final Utf8Checker utf8 = new Utf8Checker();
        private final byte[] one = new byte[1];
        private long read;

        Counting(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b < 0) {
                checkEnd();
                return b;
            }
            one[0] = (byte) b;
            checkBytes(one, 0, 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n < 0) {
                checkEnd();
            } else {
                checkBytes(buffer, offset, n);
            }
            return n;
        }

        private void checkBytes(byte[] buffer, int offset, int n) throws IOException {
            for (int i = 0; i < n; i++) {
                if (buffer[offset + i] == 0) {
                    throw new MalformedBodyException(read + i, "a NUL byte", ", which JSON text never has");
                }
            }
            long broken = utf8.check(buffer, offset, n);
            if (broken >= 0) {
                throw new MalformedBodyException(broken, "bytes that are not UTF-8", NOT_UTF8);
            }
            count(n);
        }

        private void checkEnd() throws MalformedBodyException {
            if (utf8.endsInsideACharacter()) {
                throw new MalformedBodyException(
                        utf8.position(), "bytes that are not UTF-8", ": it ends inside a character");
            }
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

package io.quotient.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A request sent byte for byte as written, over a plain socket: no HTTP client normalises, encodes or refuses the
 * path, so a test sees what the servlet container and the service make of exactly what a hostile client sends.
 */
final class RawHttp {

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    Response send(String method, String path, Map<String, String> headers, String body) throws IOException {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\nConnection: close\r\n");
        headers.forEach(
                (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            request.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(content.length)
                    .append("\r\n");
        }
        request.append("\r\n");
        return sendRaw(request.toString(), content);
    }

    /**
     * The request line and headers exactly as given (each line ending in CRLF, then an empty line), then the body's
     * bytes as they are: for requests no well-behaved client would send.
     */
    Response sendRaw(String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Response parse(String raw) {
        int end = raw.indexOf("\r\n\r\n");
        String head = end < 0 ? raw : raw.substring(0, end);
        String body = end < 0 ? "" : raw.substring(end + 4);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Response(status, headers, body);
    }

    private static String unchunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < body.length()) {
            int lineEnd = body.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size =
                    Integer.parseInt(body.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(body, lineEnd + 2, Math.min(body.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}

package io.quotient.app.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A loopback HTTP server answering one path with one JSON answer, recording what each request sent. */
final class StubService implements AutoCloseable {

    /** What one request sent: its raw query (null without one) and its Authorization header (null without one). */
    record Request(String query, String authorization) {}

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private StubService(HttpServer server) {
        this.server = server;
    }

    static StubService answering(String path, int status, String body) throws IOException {
        StubService stub = new StubService(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
        stub.server.createContext(path, exchange -> {
            stub.requests.add(new Request(
                    exchange.getRequestURI().getRawQuery(),
                    exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        stub.server.start();
        return stub;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return requests;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

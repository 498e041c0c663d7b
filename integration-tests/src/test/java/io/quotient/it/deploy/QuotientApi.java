package io.quotient.it.deploy;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The service's REST API as the tests call it: JSON in, status code and JSON out. */
public final class QuotientApi {

    private static final Gson GSON = new Gson();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String token;

    QuotientApi(URI base) {
        this(base, null);
    }

    private QuotientApi(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    /** The same API, calling with {@code Authorization: Bearer <token>}. */
    QuotientApi withToken(String bearerToken) {
        return new QuotientApi(base, bearerToken);
    }

    /** An answer: the HTTP status and the JSON body (JsonNull when empty). */
    public record Answer(int status, JsonElement body) {

        public JsonObject object() {
            return body.getAsJsonObject();
        }

        public String text(String field) {
            JsonElement value = object().get(field);
            return value == null || value.isJsonNull() ? null : value.getAsString();
        }

        /** The nodes of a placed job: its node and, for a gang, every other replica's. */
        public Set<String> nodes() {
            Set<String> nodes = new HashSet<>();
            nodes.add(text("node"));
            var replicas = object().getAsJsonArray("replicas");
            if (replicas != null) {
                replicas.forEach(r -> nodes.add(r.getAsJsonObject().get("node").getAsString()));
            }
            return nodes;
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    public Answer deploy(String team, Map<String, ?> body) {
        return send(HttpRequest.newBuilder(path("/api/v1/teams/" + team + "/jobs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(GSON.toJson(body))));
    }

    /** Sends a raw body, for malformed JSON and unknown fields. */
    Answer deployRaw(String team, String json) {
        return send(HttpRequest.newBuilder(path("/api/v1/teams/" + team + "/jobs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** GET of the team's job list, as an answer (status and body). */
    public Answer jobs(String team) {
        return send(
                HttpRequest.newBuilder(path("/api/v1/teams/" + team + "/jobs")).GET());
    }

    public Answer job(String team, String name) {
        return send(HttpRequest.newBuilder(path("/api/v1/teams/" + team + "/jobs/" + name))
                .GET());
    }

    public Answer delete(String team, String name) {
        return send(HttpRequest.newBuilder(path("/api/v1/teams/" + team + "/jobs/" + name))
                .DELETE());
    }

    JsonArray teams() {
        return send(HttpRequest.newBuilder(path("/api/v1/teams")).GET()).body().getAsJsonArray();
    }

    /** One team of GET /api/v1/teams. */
    public JsonObject team(String name) {
        for (JsonElement team : teams()) {
            if (name.equals(team.getAsJsonObject().get("name").getAsString())) {
                return team.getAsJsonObject();
            }
        }
        throw new AssertionError("GET /api/v1/teams lists no team " + name + ": " + teams());
    }

    /** The rows of {@code GET /api/v1/usage?groupBy=...} (the default days: the last 7 ending today). */
    JsonArray usage(String groupBy) {
        Answer answer = send(
                HttpRequest.newBuilder(path("/api/v1/usage?groupBy=" + groupBy)).GET());
        if (answer.status() != 200) {
            throw new AssertionError("GET /api/v1/usage?groupBy=" + groupBy + " answered " + answer);
        }
        return answer.body().getAsJsonArray();
    }

    Answer cluster() {
        return send(HttpRequest.newBuilder(path("/api/v1/cluster")).GET());
    }

    /** The service's Prometheus scrape ({@code GET /actuator/prometheus}) as text. */
    String prometheus() {
        return text("/actuator/prometheus");
    }

    /** The body of {@code GET path} as text; fails unless the answer is 200. */
    String text(String path) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(path(path))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("calling GET " + path + " of the service at " + base + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the service", e);
        }
    }

    /** Whether the service answers its health endpoint with 200. */
    boolean healthy() {
        try {
            return http.send(
                                    HttpRequest.newBuilder(path("/actuator/health"))
                                            .timeout(Duration.ofSeconds(2))
                                            .GET()
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private URI path(String path) {
        return base.resolve(path);
    }

    private Answer send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response =
                    http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            return new Answer(
                    response.statusCode(),
                    body == null || body.isBlank() ? JsonNull.INSTANCE : JsonParser.parseString(body));
        } catch (IOException e) {
            throw new UncheckedIOException("calling the service at " + base + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the service", e);
        }
    }
}

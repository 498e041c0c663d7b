package io.quotient.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Debian's Prometheus server for tests (installed by {@code plugin/src/test/bin/install-prometheus} when missing):
 * on a loopback port, scraping one job's targets every second and evaluating rule files every second. The targets
 * are a file-based service discovery file, so a test can replace them as service replicas come and go (a restarted
 * replica is a new target, as a restarted pod is). Shared by the plugin's tests and the integration tests.
 */
public final class PrometheusServer implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(30);

    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final Path dir;
    private final String job;
    private final String url;
    private Process process;

    private PrometheusServer(Path dir, String job, int port) {
        this.dir = dir;
        this.job = job;
        this.url = "http://127.0.0.1:" + port;
    }

    /** Installs Debian's {@code prometheus} package with {@code installScript} unless the server is there. */
    public static void ensureInstalled(Path installScript) throws IOException, InterruptedException {
        DebianTools.ensure(installScript, "prometheus", BINARY);
    }

    /**
     * Starts the server with its state under {@code dir}, scraping {@code metricsPath} of {@code targets}
     * ({@code host:port}) as job {@code job}, with copies of {@code ruleFiles}; returns once it is ready.
     */
    public static PrometheusServer start(
            Path dir, String job, String metricsPath, List<String> targets, List<Path> ruleFiles)
            throws IOException, InterruptedException {
        PrometheusServer server = new PrometheusServer(dir, job, freePort());
        server.targets(targets);
        List<String> rules = new ArrayList<>();
        for (Path file : ruleFiles) {
            Path copy = dir.resolve(file.getFileName());
            Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
            rules.add(copy.toString());
        }
        // JSON is YAML: the configuration is written as a value, not as pasted text
        Map<String, Object> config = Map.of(
                "global", Map.of("scrape_interval", "1s", "evaluation_interval", "1s"),
                "rule_files", rules,
                "scrape_configs",
                        List.of(Map.of(
                                "job_name",
                                job,
                                "metrics_path",
                                metricsPath,
                                "file_sd_configs",
                                List.of(Map.of(
                                        "files",
                                        List.of(server.targetsFile().toString()),
                                        "refresh_interval",
                                        "1s")))));
        Path file = dir.resolve("prometheus.yml");
        server.json.writeValue(file.toFile(), config);
        server.process = new ProcessBuilder(
                        BINARY.toString(),
                        "--config.file=" + file,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=" + server.url.substring("http://".length()))
                .redirectErrorStream(true)
                .redirectOutput(server.log().toFile())
                .start();
        server.awaitReady();
        return server;
    }

    /** Replaces the scraped targets ({@code host:port}); Prometheus picks the file up within a second or two. */
    public void targets(List<String> targets) throws IOException {
        Path next = dir.resolve("targets.json.next");
        json.writeValue(next.toFile(), List.of(Map.of("targets", targets)));
        // moved into place whole: Prometheus never reads half a file
        Files.move(next, targetsFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits until Prometheus has scraped all {@code count} targets of its job successfully. */
    public void awaitScraped(int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + SCRAPE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode result = query("up{job=\"" + job + "\"}");
            long up = 0;
            for (JsonNode sample : result) {
                up += sample.path("value").get(1).asText().equals("1") ? 1 : 0;
            }
            if (result.size() == count && up == count) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("prometheus did not scrape " + count + " targets of job " + job + " within "
                + SCRAPE_TIMEOUT.toSeconds() + " s: " + query("up") + "\n" + Files.readString(log()));
    }

    /** The result vector of an instant query now. */
    public JsonNode query(String promql) throws IOException, InterruptedException {
        String answer = get(url + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        return json.readTree(answer).path("data").path("result");
    }

    /** The value of the one series an instant query gives now; fails when it gives none or several. */
    public double value(String promql) throws IOException, InterruptedException {
        JsonNode result = query(promql);
        if (result.size() != 1) {
            throw new AssertionError("expected one series for " + promql + ", got " + result);
        }
        return result.get(0).path("value").get(1).asDouble();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor();
        }
    }

    private Path targetsFile() {
        return dir.resolve("targets.json");
    }

    private Path log() {
        return dir.resolve("prometheus.log");
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(
                                        HttpRequest.newBuilder(URI.create(url + "/-/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(log()));
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "prometheus not ready within " + READY_TIMEOUT.toSeconds() + " s: " + Files.readString(log()));
    }

    private String get(String target) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(target)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + target + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }
}

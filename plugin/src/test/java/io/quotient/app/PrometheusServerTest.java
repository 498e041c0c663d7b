package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.testing.DebianTools;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real Prometheus server (Debian's, installed by {@code src/test/bin/install-prometheus} when missing) on a
 * loopback port scrapes the embedded service every second and evaluates the shipped recording rules
 * ({@code deploy/prometheus/quotient-rules.yaml}); the rule's GPU-hours for a team equal the showback API's.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"quotient.cluster.mode=embedded", "quotient.usage.interval=1s"})
@AutoConfigureObservability
class PrometheusServerTest {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final Path RULES = Path.of("../deploy/prometheus/quotient-rules.yaml");
    private static final int GPUS = 2;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private Process prometheus;

    @LocalServerPort
    private int port;

    @TempDir
    Path dir;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, "teams:\n  - name: scraped\n    guaranteedGpus: 4\n");
    }

    @AfterEach
    void stopPrometheus() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            prometheus.waitFor();
        }
    }

    @Test
    void theRecordingRuleGivesTheApisGpuHours() throws Exception {
        DebianTools.ensure(Path.of("src/test/bin/install-prometheus"), "prometheus", PROMETHEUS);
        String prometheusUrl = startPrometheus();
        awaitFirstScrape(prometheusUrl);

        HttpResponse<String> placed = http.send(
                HttpRequest.newBuilder(URI.create(service("/api/v1/teams/scraped/jobs")))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"train\", \"gpu\": {\"count\": " + GPUS
                                + "}, \"image\": \"busybox:1.36\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
        Thread.sleep(20_000);

        double rule = ruleValue(prometheusUrl, "team:quotient_gpu_allocated_hours:1d");
        JsonNode rows = json.readTree(get(service("/api/v1/usage")));
        double api = rows.get(0).path("allocatedGpuHours").asDouble();
        assertThat(rows.get(0).path("team").asText()).isEqualTo("scraped");
        assertThat(api).as("2 GPUs for about 20 s").isGreaterThan(GPUS * 15 / 3600.0);
        // apart by what the refresh, the scrape and the rule's evaluation lag (1 s each), the first observation of
        // the series (its first scrape after the first refresh) and the time between the two reads: at most 8 s of
        // the job's GPUs on a loaded machine
        assertThat(rule).isCloseTo(api, offset(GPUS * 8 / 3600.0));
        assertThat(ruleValue(prometheusUrl, "team:quotient_gpu_used_hours:1d"))
                .as("nothing measured")
                .isZero();
    }

    private String startPrometheus() throws Exception {
        int promPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            promPort = socket.getLocalPort();
        }
        Path rules = dir.resolve("quotient-rules.yaml");
        Files.copy(RULES, rules);
        // JSON is YAML: the configuration is written as a value, not as pasted text
        Map<String, Object> config = Map.of(
                "global", Map.of("scrape_interval", "1s", "evaluation_interval", "1s"),
                "rule_files", List.of(rules.toString()),
                "scrape_configs",
                        List.of(Map.of(
                                "job_name",
                                "quotient",
                                "metrics_path",
                                "/actuator/prometheus",
                                "static_configs",
                                List.of(Map.of("targets", List.of("127.0.0.1:" + port))))));
        Path file = dir.resolve("prometheus.yml");
        json.writeValue(file.toFile(), config);
        prometheus = new ProcessBuilder(
                        PROMETHEUS.toString(),
                        "--config.file=" + file,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + promPort)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        String url = "http://127.0.0.1:" + promPort;
        for (int i = 0; i < 100; i++) {
            try {
                if (http.send(
                                        HttpRequest.newBuilder(URI.create(url + "/-/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode()
                        == 200) {
                    return url;
                }
            } catch (IOException e) {
                // not listening yet
            }
            assertThat(prometheus.isAlive())
                    .as("prometheus runs: " + Files.readString(dir.resolve("prometheus.log")))
                    .isTrue();
            Thread.sleep(200);
        }
        throw new AssertionError("prometheus not ready: " + Files.readString(dir.resolve("prometheus.log")));
    }

    /**
     * Waits until Prometheus has scraped the service once: its scrape loop starts some seconds after it is ready, and
     * usage before the series' first sample is not in the rule (docs/usage.md), so the job is placed only then.
     */
    private void awaitFirstScrape(String prometheusUrl) throws Exception {
        String query = URLEncoder.encode("up{job=\"quotient\"}", StandardCharsets.UTF_8);
        for (int i = 0; i < 150; i++) {
            JsonNode result = json.readTree(get(prometheusUrl + "/api/v1/query?query=" + query))
                    .path("data")
                    .path("result");
            if (result.size() == 1
                    && result.get(0).path("value").get(1).asText().equals("1")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "prometheus never scraped the service: " + Files.readString(dir.resolve("prometheus.log")));
    }

    /** The recorded series' value for the team, as the query API gives it now. */
    private double ruleValue(String prometheusUrl, String rule) throws Exception {
        String query = URLEncoder.encode(rule + "{team=\"scraped\"}", StandardCharsets.UTF_8);
        JsonNode answer = json.readTree(get(prometheusUrl + "/api/v1/query?query=" + query));
        JsonNode result = answer.path("data").path("result");
        assertThat(result.size()).as(rule + ": " + answer).isEqualTo(1);
        return result.get(0).path("value").get(1).asDouble();
    }

    private String service(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private String get(String url) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return response.body();
    }
}

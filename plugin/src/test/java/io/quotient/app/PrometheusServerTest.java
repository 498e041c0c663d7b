package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.testing.PrometheusServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
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

    private static final Path RULES = Path.of("../deploy/prometheus/quotient-rules.yaml");
    private static final int GPUS = 2;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private PrometheusServer prometheus;

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
            prometheus.close();
        }
    }

    @Test
    void theRecordingRuleGivesTheApisGpuHours() throws Exception {
        PrometheusServer.ensureInstalled(Path.of("src/test/bin/install-prometheus"));
        prometheus = PrometheusServer.start(
                dir, "quotient", "/actuator/prometheus", List.of("127.0.0.1:" + port), List.of(RULES));
        // usage before the series' first sample is not in the rule (docs/usage.md), so the job is placed only then
        prometheus.awaitScraped(1);

        HttpResponse<String> placed = http.send(
                HttpRequest.newBuilder(URI.create(service("/api/v1/teams/scraped/jobs")))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"train\", \"gpu\": {\"count\": " + GPUS
                                + "}, \"image\": \"busybox:1.36\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
        Thread.sleep(20_000);

        double rule = prometheus.value("team:quotient_gpu_allocated_hours:1d{team=\"scraped\"}");
        JsonNode rows = json.readTree(get(service("/api/v1/usage")));
        double api = rows.get(0).path("allocatedGpuHours").asDouble();
        assertThat(rows.get(0).path("team").asText()).isEqualTo("scraped");
        assertThat(api).as("2 GPUs for about 20 s").isGreaterThan(GPUS * 15 / 3600.0);
        // apart by what the refresh, the scrape and the rule's evaluation lag (1 s each), the first observation of
        // the series (its first scrape after the first refresh) and the time between the two reads: at most 8 s of
        // the job's GPUs on a loaded machine
        assertThat(rule).isCloseTo(api, offset(GPUS * 8 / 3600.0));
        assertThat(prometheus.value("team:quotient_gpu_used_hours:1d{team=\"scraped\"}"))
                .as("nothing measured")
                .isZero();
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

package io.quotient.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.app.QuotientApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * How long the dashboard takes at 500 nodes × 8 GPUs (4,000 GPUs, about 1,600 jobs of eight teams, whole GPUs and
 * fractions, 95 % of the capacity asked): the service's answer to GET /api/v1/dashboard, and the page's drawing of it in
 * Debian's headless Chromium (all four sections, layout included). Prints the figures; asserts only that the page
 * drew the whole map.
 * {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=DashboardRenderBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
class DashboardRenderBenchmark {

    private static final int NODES = 500;
    private static final int GPUS = 8;
    private static final int TEAMS = 8;
    private static final Path DIR = tempDir();

    @LocalServerPort
    private int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) throws IOException {
        Files.writeString(
                DIR.resolve("cluster.yaml"),
                "nodes:\n  - name: node\n    count: " + NODES + "\n    gpus: " + GPUS
                        + "\n    gpuModel: H100-80GB\n    gpuMemoryMib: 81920\n    cpuMilli: 256000\n    memoryMib: 2097152\n");
        StringBuilder teams = new StringBuilder("teams:\n");
        for (int t = 0; t < TEAMS; t++) {
            teams.append("  - name: team-")
                    .append(t)
                    .append("\n    guaranteedGpus: ")
                    .append(NODES * GPUS / TEAMS)
                    .append("\n    overQuotaWeight: 1\n");
        }
        Files.writeString(DIR.resolve("teams.yaml"), teams);
        registry.add(
                "quotient.embedded.cluster-file",
                () -> DIR.resolve("cluster.yaml").toString());
        registry.add("quotient.teams-file", () -> DIR.resolve("teams.yaml").toString());
    }

    @Test
    void drawsTheDashboardOfA500NodeCluster() throws Exception {
        fillTheCluster();
        long[] server = new long[20];
        String body = "";
        for (int i = 0; i < server.length; i++) {
            long start = System.nanoTime();
            body = get("/api/v1/dashboard");
            server[i] = System.nanoTime() - start;
        }
        try (ChromiumBrowser browser = ChromiumBrowser.start(1600, 1200)) {
            var page = browser.driver();
            page.get("http://localhost:" + port + "/");
            page.manage().timeouts().scriptTimeout(Duration.ofSeconds(120));
            Object result = page.executeAsyncScript("""
                    const done = arguments[arguments.length - 1];
                    window.quotientDashboard.stop();
                    fetch('api/v1/dashboard').then(r => r.text()).then(text => {
                      const parse = [], draw = [];
                      for (let i = 0; i < 15; i++) {
                        let t = performance.now();
                        const data = JSON.parse(text);
                        parse.push(performance.now() - t);
                        draw.push(window.quotientDashboard.render(data));
                      }
                      requestAnimationFrame(() => done({parse, draw, cells: document.querySelectorAll('.gpu').length}));
                    });
                    """);
            @SuppressWarnings("unchecked")
            var figures = (Map<String, Object>) result;
            assertThat(((Number) figures.get("cells")).intValue()).isEqualTo(NODES * GPUS);
            browser.screenshot(Path.of("target/dashboard-500-nodes.png"));
            System.out.printf(
                    Locale.ROOT,
                    "%nDashboard at %d nodes x %d GPUs, %s, answer %d KiB%n"
                            + "  GET /api/v1/dashboard (service, 20 calls after warm-up): median %.1f ms, max %.1f ms%n"
                            + "  JSON.parse in Chromium (15 runs): median %.1f ms, max %.1f ms%n"
                            + "  render, layout included (15 runs; the first is cold): first %.1f ms, median %.1f ms,"
                            + " max %.1f ms%n",
                    NODES,
                    GPUS,
                    jobsSummary(body),
                    body.length() / 1024,
                    median(server) / 1e6,
                    max(server) / 1e6,
                    median(millis(figures.get("parse"))),
                    max(millis(figures.get("parse"))),
                    millis(figures.get("draw"))[0],
                    median(millis(figures.get("draw"))),
                    max(millis(figures.get("draw"))));
        }
    }

    /** 95 % of the GPUs asked by whole-GPU jobs and fractions of eight teams (a job that finds no room waits). */
    private void fillTheCluster() throws Exception {
        Random random = new Random(42);
        int[] wholes = {1, 1, 2, 2, 4, 8};
        double[] fractions = {0.25, 0.5, 0.75};
        List<String> bodies = new ArrayList<>();
        double asked = 0;
        for (int i = 0; asked < NODES * GPUS * 0.95; i++) {
            boolean fraction = random.nextInt(4) == 0;
            double share =
                    fraction ? fractions[random.nextInt(fractions.length)] : wholes[random.nextInt(wholes.length)];
            asked += share;
            bodies.add(
                    "team-" + random.nextInt(TEAMS) + "|{\"name\": \"job-" + i + "\", \"preemptible\": true, \"gpu\": "
                            + (fraction
                                    ? "{\"fraction\": " + share + ", \"fractionLimit\": 1.0}"
                                    : "{\"count\": " + (int) share + "}")
                            + "}");
        }
        for (String b : bodies) {
            String[] parts = b.split("\\|", 2);
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(
                                    URI.create("http://localhost:" + port + "/api/v1/teams/" + parts[0] + "/jobs"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(parts[1]))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isIn(201, 202);
        }
    }

    private String get(String path) throws IOException, InterruptedException {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static String jobsSummary(String body) throws IOException {
        var view = new ObjectMapper().readTree(body);
        int shares = 0;
        for (var node : view.path("cluster").path("nodes")) {
            for (var gpu : node.path("gpus")) {
                shares += gpu.path("jobs").size();
            }
        }
        return view.path("placed").size() + " placed jobs holding " + shares + " GPU shares, "
                + view.path("pending").size() + " pending jobs, "
                + view.path("recent").size() + " events";
    }

    private static double[] millis(Object list) {
        return ((List<?>) list)
                .stream().mapToDouble(v -> ((Number) v).doubleValue()).toArray();
    }

    private static double median(long[] values) {
        return median(Arrays.stream(values).asDoubleStream().toArray());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double max(long[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("quotient-dashboard-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.quotient.enforcer.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.enforcer.core.ContainerRef;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.KillReason;
import io.quotient.enforcer.core.NodeReport;
import io.quotient.enforcer.core.NodeUsage;
import io.quotient.enforcer.core.PodRef;
import io.quotient.enforcer.core.ProcessIdentity;
import io.quotient.enforcer.core.ReservationAssignments;
import io.quotient.enforcer.core.UtilizationSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The enforcer's writes as the API server receives them: method, path, content type and body. */
class KubernetesReporterTest {

    private record Request(String method, String path, String contentType, JsonObject body) {}

    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private KubernetesReporter reporter;

    @BeforeEach
    void apiServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    JsonParser.parseString(body).getAsJsonObject()));
            // a create answers with the object created, as the API server does
            byte[] answer = (exchange.getRequestMethod().equals("POST") ? body : "{}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(exchange.getRequestMethod().equals("POST") ? 201 : 200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        ApiClient client = new ApiClient()
                .setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
        reporter = new KubernetesReporter(client, "node-a");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void theNodeReportIsAMergePatchOfTheAnnotationWithTheDocumentedFields() throws Exception {
        NodeReport report = new NodeReport(
                true,
                "",
                Instant.parse("2026-11-23T12:00:00Z"),
                "550.54.15",
                List.of(new NodeReport.Gpu(0, "GPU-1", "Tesla T4", 15360, 1024, 14336)));

        reporter.publishReport(report);

        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("PATCH");
            assertThat(request.path()).isEqualTo("/api/v1/nodes/node-a");
            assertThat(request.contentType()).startsWith("application/merge-patch+json");
            String annotation = request.body()
                    .getAsJsonObject("metadata")
                    .getAsJsonObject("annotations")
                    .get(NodeReport.ANNOTATION)
                    .getAsString();
            JsonObject json = JsonParser.parseString(annotation).getAsJsonObject();
            assertThat(json.get("ready").getAsBoolean()).isTrue();
            assertThat(json.get("updatedAt").getAsString()).isEqualTo("2026-11-23T12:00:00Z");
            assertThat(json.get("driverVersion").getAsString()).isEqualTo("550.54.15");
            JsonObject gpu = json.getAsJsonArray("gpus").get(0).getAsJsonObject();
            assertThat(gpu.get("uuid").getAsString()).isEqualTo("GPU-1");
            assertThat(gpu.get("model").getAsString()).isEqualTo("Tesla T4");
            assertThat(gpu.get("memoryTotalMib").getAsLong()).isEqualTo(15360);
            assertThat(gpu.get("memoryUsedMib").getAsLong()).isEqualTo(1024);
            assertThat(gpu.get("memoryFreeMib").getAsLong()).isEqualTo(14336);
        });
    }

    @Test
    void theReportCarriesEachPodsUsageWindowAndTotals() throws Exception {
        Instant start = Instant.parse("2026-11-23T12:00:00Z");
        Instant end = start.plusSeconds(30);
        PodRef notebook = new PodRef("team-a", "notebook-0", "uid-1", "vision", "notebook");
        NodeUsage usage = new NodeUsage(
                start,
                end,
                60,
                List.of(new NodeUsage.PodUsage(
                        notebook,
                        List.of(
                                new NodeUsage.GpuUsage(
                                        "GPU-1",
                                        UtilizationSource.PROCESS,
                                        new NodeUsage.Window(30, 12.345, 3L << 30, 4L << 30),
                                        new NodeUsage.Totals(
                                                start.minusSeconds(600), 630, 630, 81.04, 630.0 * (3L << 30))),
                                new NodeUsage.GpuUsage(
                                        "MIG-2",
                                        UtilizationSource.UNAVAILABLE,
                                        new NodeUsage.Window(30, -1, 1L << 30, 1L << 30),
                                        new NodeUsage.Totals(start, 30, 0, 0, 30.0 * (1L << 30)))))));
        NodeReport report = new NodeReport(
                true,
                "",
                end,
                "550.54.15",
                List.of(new NodeReport.Gpu(0, "GPU-1", "Tesla T4", 15360, 1024, 14336)),
                usage);

        reporter.publishReport(report);

        String annotation = requests.get(0)
                .body()
                .getAsJsonObject("metadata")
                .getAsJsonObject("annotations")
                .get(NodeReport.ANNOTATION)
                .getAsString();
        JsonObject json = JsonParser.parseString(annotation).getAsJsonObject().getAsJsonObject("usage");
        assertThat(json.get("windowStart").getAsString()).isEqualTo("2026-11-23T12:00:00Z");
        assertThat(json.get("windowEnd").getAsString()).isEqualTo("2026-11-23T12:00:30Z");
        assertThat(json.get("samples").getAsInt()).isEqualTo(60);
        JsonObject pod = json.getAsJsonArray("pods").get(0).getAsJsonObject();
        assertThat(pod.get("namespace").getAsString()).isEqualTo("team-a");
        assertThat(pod.get("name").getAsString()).isEqualTo("notebook-0");
        assertThat(pod.get("uid").getAsString()).isEqualTo("uid-1");
        assertThat(pod.get("team").getAsString()).isEqualTo("vision");
        assertThat(pod.get("job").getAsString()).isEqualTo("notebook");
        JsonObject gpu = pod.getAsJsonArray("gpus").get(0).getAsJsonObject();
        assertThat(gpu.get("uuid").getAsString()).isEqualTo("GPU-1");
        assertThat(gpu.get("source").getAsString()).isEqualTo("process");
        assertThat(gpu.get("windowSeconds").getAsDouble()).isEqualTo(30.0);
        assertThat(gpu.get("utilizationPercent").getAsDouble()).isEqualTo(12.3);
        assertThat(gpu.get("memoryUsedMib").getAsLong()).isEqualTo(3072);
        assertThat(gpu.get("memoryPeakMib").getAsLong()).isEqualTo(4096);
        assertThat(gpu.get("countingSince").getAsString()).isEqualTo("2026-11-23T11:50:00Z");
        assertThat(gpu.get("presentSeconds").getAsDouble()).isEqualTo(630.0);
        assertThat(gpu.get("measuredSeconds").getAsDouble()).isEqualTo(630.0);
        assertThat(gpu.get("busyGpuSeconds").getAsDouble()).isEqualTo(81.0);
        assertThat(gpu.get("memoryMibSeconds").getAsLong()).isEqualTo(630 * 3072);
        JsonObject mig = pod.getAsJsonArray("gpus").get(1).getAsJsonObject();
        assertThat(mig.get("source").getAsString()).isEqualTo("unavailable");
        assertThat(mig.has("utilizationPercent"))
                .as("unmeasured is left out, not -1")
                .isFalse();
    }

    @Test
    void everyKillIsAWarningEventOnThePodSayingWhatWhyAndHowMuch() throws Exception {
        ContainerRef container = new ContainerRef("team-a", "train-0", "uid-1", "main", "abc");
        KillDecision decision = new KillDecision(
                new ProcessIdentity(4242, 99, "uid-1", "abc"),
                "GPU-1",
                container,
                KillReason.LIMIT_EXCEEDED,
                3L << 30,
                "team-a/train-0[main] uses 3.00 GiB, above its limit of 2.00 GiB");

        reporter.recordKill(decision, true);

        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.path()).isEqualTo("/api/v1/namespaces/team-a/events");
            JsonObject event = request.body();
            assertThat(event.get("type").getAsString()).isEqualTo("Warning");
            assertThat(event.get("reason").getAsString()).isEqualTo("GpuOomKilled");
            assertThat(event.get("message").getAsString())
                    .contains("4242", "3.00 GiB", "SIGKILL", "above its limit of 2.00 GiB");
            JsonObject involved = event.getAsJsonObject("involvedObject");
            assertThat(involved.get("kind").getAsString()).isEqualTo("Pod");
            assertThat(involved.get("name").getAsString()).isEqualTo("train-0");
            assertThat(involved.get("uid").getAsString()).isEqualTo("uid-1");
            assertThat(involved.get("fieldPath").getAsString()).isEqualTo("spec.containers{main}");
            assertThat(event.getAsJsonObject("source").get("host").getAsString())
                    .isEqualTo("node-a");
        });
    }

    @Test
    void aReservationPodIsAnnotatedWithItsGpuUuid() throws Exception {
        reporter.annotateReservation(
                new ReservationAssignments.Assignment("quotient-system", "quotient-reservation-node-a-0", "GPU-1"));

        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("PATCH");
            assertThat(request.path())
                    .isEqualTo("/api/v1/namespaces/quotient-system/pods/quotient-reservation-node-a-0");
            assertThat(request.contentType()).startsWith("application/merge-patch+json");
            assertThat(request.body()
                            .getAsJsonObject("metadata")
                            .getAsJsonObject("annotations")
                            .get("quotient.io/gpu-uuid")
                            .getAsString())
                    .isEqualTo("GPU-1");
        });
    }
}

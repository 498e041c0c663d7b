package io.quotient.enforcer.app;

import static io.quotient.enforcer.testing.FakeNvmlState.GIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.FakeNvml;
import io.quotient.enforcer.testing.FakeNvmlState;
import io.quotient.enforcer.testing.NodeFixture;
import io.quotient.enforcer.testing.ProcFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The packaged application: NVML found by its default names on the JNA path (the fake), the enforcement
 * loop running on its own schedule, readiness following NVML, Prometheus metrics. Kubernetes is off;
 * pods come from the test's node fixture. Spring Boot turns metrics export (and with it the Prometheus
 * endpoint) off in tests; {@link AutoConfigureObservability} turns it back on, as in production.
 */
@AutoConfigureObservability(tracing = false)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "quotient.enforcer.kubernetes.enabled=false",
            "quotient.enforcer.poll-interval=100ms",
            "quotient.enforcer.grace-period=1s",
            "quotient.enforcer.node-name=node-a"
        })
class NodeEnforcerApplicationTest {

    @TempDir
    static Path dir;

    private static final ChildProcesses children = new ChildProcesses();
    private static FakeNvml fake;
    private static NodeFixture node;
    private static Process borrower;
    private static Process greedy;

    @Autowired
    TestRestTemplate http;

    @BeforeAll
    static void node() throws IOException {
        node = new NodeFixture(new ProcFixture(Files.createDirectories(dir.resolve("proc"))));
        fake = FakeNvml.full(dir);
        borrower = children.sleeper();
        greedy = children.sleeper();
        node.podWith(borrower, Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", "0.5"), Map.of());
        node.podWith(greedy, Map.of("gpu-memory", "1024"), Map.of());
        fake.write(healthy());
    }

    @AfterAll
    static void stopChildren() {
        children.close();
    }

    private static FakeNvmlState healthy() {
        return withGreedyUsing(GIB / 2);
    }

    private static FakeNvmlState withGreedyUsing(long greedyBytes) {
        return FakeNvmlState.create()
                .device(0, 16 * GIB, "Tesla T4")
                .utilization(0, 37, 20)
                .process(0, borrower.pid(), 6 * GIB)
                .process(0, greedy.pid(), greedyBytes);
    }

    @DynamicPropertySource
    static void procRoot(DynamicPropertyRegistry registry) {
        registry.add("quotient.enforcer.proc-root", () -> dir.resolve("proc").toString());
    }

    @TestConfiguration
    static class Pods {
        @Bean
        @Primary
        PodDirectory testPods() {
            return node;
        }
    }

    @Test
    void readyWithMetricsThenKillsAndCountsAProcessOverItsLimit() {
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(http.getForEntity("/actuator/health/readiness", String.class)
                                .getStatusCode())
                        .isEqualTo(HttpStatus.OK));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(prometheus())
                        .contains("quotient_gpu_memory_total_bytes{gpu=\"" + FakeNvmlState.uuid(0)
                                + "\",index=\"0\",model=\"Tesla T4\"} " + (double) (16 * GIB))
                        .contains("quotient_gpu_utilization_percent{gpu=\"" + FakeNvmlState.uuid(0)
                                + "\",index=\"0\",model=\"Tesla T4\"} 37.0")
                        .containsPattern(
                                "quotient_container_gpu_memory_loaned_bytes\\{container=\"main\",gpu=\"GPU-[0-9-]+\","
                                        + "namespace=\"team-a\",pod=\"pod-" + borrower.pid() + "\"} "
                                        + (double) (2 * GIB))
                        .containsPattern("quotient_enforcer_nvml_ready 1.0"));

        fake.write(withGreedyUsing(2 * GIB));

        await().atMost(Duration.ofSeconds(10)).until(() -> !greedy.isAlive());
        assertThat(borrower.isAlive()).isTrue();
        assertThat(prometheus())
                .containsPattern("quotient_enforcer_kills_total\\{namespace=\"team-a\",reason=\"GpuOomKilled\","
                        + "result=\"SIGNALLED\",signal=\"SIGTERM\"} 1.0");
    }

    @Test
    void notReadyWhileTheGpuIsLost() {
        fake.write(healthy().fail("nvmlDeviceGetCount_v2", 15));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            ResponseEntity<String> readiness = http.getForEntity("/actuator/health/readiness", String.class);
            assertThat(readiness.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(readiness.getBody()).contains("GPU_IS_LOST");
        });
        assertThat(http.getForEntity("/actuator/health/liveness", String.class).getStatusCode())
                .as("alive: restarting would not bring the GPU back")
                .isEqualTo(HttpStatus.OK);

        fake.write(healthy());

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(http.getForEntity("/actuator/health/readiness", String.class)
                                .getStatusCode())
                        .isEqualTo(HttpStatus.OK));
    }

    private String prometheus() {
        return http.getForObject("/actuator/prometheus", String.class);
    }
}

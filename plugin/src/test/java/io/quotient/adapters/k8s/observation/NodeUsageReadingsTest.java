package io.quotient.adapters.k8s.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The usage object of the enforcer's report (its JSON as the enforcer writes it) read into pod counters. */
class NodeUsageReadingsTest {

    private static final JobId NOTEBOOK = new JobId("vision", "notebook");

    private static String report(String gpus) {
        return """
                {"ready":true,"reason":"","updatedAt":"2026-11-23T12:00:30Z","driverVersion":"550.54.15",
                 "gpus":[{"index":0,"uuid":"GPU-1","model":"Tesla T4","memoryTotalMib":15360,"memoryUsedMib":1024,
                          "memoryFreeMib":14336}],
                 "usage":{"windowStart":"2026-11-23T12:00:00Z","windowEnd":"2026-11-23T12:00:30Z","samples":60,
                          "pods":[{"namespace":"team-a","name":"notebook-0","uid":"uid-1","team":"vision",
                                   "job":"notebook","gpus":[%s]}]}}
                """.formatted(gpus);
    }

    private static final String GOOD = """
            {"uuid":"GPU-1","source":"process","windowSeconds":30.0,"utilizationPercent":12.3,"memoryUsedMib":3072,
             "memoryPeakMib":4096,"countingSince":"2026-11-23T11:50:00Z","presentSeconds":630.0,
             "measuredSeconds":630.0,"busyGpuSeconds":81.0,"memoryMibSeconds":1935360}""";

    private static List<PodCounterReading> read(String json) {
        return NodeUsageReadings.of("node-a", GpuReport.parse(json).orElseThrow(), pod -> Optional.of(NOTEBOOK));
    }

    @Test
    void aPodsTotalsBecomeAReadingOfItsJob() {
        assertThat(read(report(GOOD)))
                .containsExactly(new PodCounterReading(
                        "node-a",
                        "uid-1",
                        "GPU-1",
                        NOTEBOOK,
                        new PodCounters(Instant.parse("2026-11-23T11:50:00Z"), 630, 630, 81, 1935360)));
    }

    @Test
    void theJobComesFromTheServicesViewOfThePodNotFromTheReport() {
        GpuReport parsed = GpuReport.parse(report(GOOD)).orElseThrow();

        assertThat(NodeUsageReadings.of("node-a", parsed, pod -> Optional.empty()))
                .isEmpty();
        assertThat(NodeUsageReadings.of("node-a", parsed, pod -> Optional.of(new JobId("nlp", "x"))))
                .extracting(PodCounterReading::job)
                .containsExactly(new JobId("nlp", "x"));
    }

    @Test
    void entriesThatCannotBeTrustedAreLeftOut() {
        String negative = GOOD.replace("\"busyGpuSeconds\":81.0", "\"busyGpuSeconds\":-1.0");
        String badTime = GOOD.replace("2026-11-23T11:50:00Z", "yesterday");
        String moreMeasured = GOOD.replace("\"measuredSeconds\":630.0", "\"measuredSeconds\":631.0");
        String missing = GOOD.replace("\"presentSeconds\":630.0,", "");

        assertThat(read(report(String.join(",", negative, badTime, moreMeasured, missing))))
                .isEmpty();
        assertThat(read(report(String.join(",", negative, GOOD)))).hasSize(1);
    }

    @Test
    void anEnforcerOlderThanUsageStillReportsReadiness() {
        GpuReport old = GpuReport.parse("""
                {"ready":true,"reason":"","updatedAt":"2026-11-23T12:00:30Z","driverVersion":"550.54.15","gpus":[]}
                """).orElseThrow();

        assertThat(NodeUsageReadings.of("node-a", old, pod -> Optional.of(NOTEBOOK)))
                .isEmpty();
        assertThat(old.readyAt(Instant.parse("2026-11-23T12:00:40Z"), Duration.ofSeconds(60)))
                .isTrue();
    }
}

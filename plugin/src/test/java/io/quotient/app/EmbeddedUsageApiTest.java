package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.adapters.metrics.UsageMeters;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.usage.UsageRecorder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Usage accounting wired into the whole application on the embedded cluster: a placed job's allocation is counted
 * by the recorder and shown by {@code GET /api/v1/usage}. The embedded cluster has no node enforcer, so nothing is
 * measured: all of it is unmeasured, none of it used or idle. The same totals are scraped from
 * {@code /actuator/prometheus} as {@code quotient_gpu_allocated_seconds_total} and {@code quotient_gpu_used_seconds_total}.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
@AutoConfigureObservability // Spring's tests turn the Prometheus registry off unless asked
class EmbeddedUsageApiTest {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private UsageRecorder recorder;

    @Autowired
    private UsageMeters meters;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, "teams:\n  - name: showback\n    guaranteedGpus: 4\n");
    }

    @Test
    void aPlacedJobsAllocationIsCountedAndShown() throws Exception {
        mvc.perform(post("/api/v1/teams/showback/jobs")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"train\", \"gpu\": {\"count\": 3}, \"image\": \"busybox:1.36\"}"))
                .andExpect(status().isCreated());
        recorder.tick();
        Thread.sleep(1200);
        recorder.tick();

        JobUsageRecord record = recorder.records().stream()
                .filter(r -> r.job().equals(new JobId("showback", "train")))
                .findFirst()
                .orElseThrow();
        assertThat(record.total().allocatedInQuotaGpuSeconds())
                .as("3 GPUs for at least 1.2 s")
                .isGreaterThan(3.5);
        assertThat(record.total().unmeasuredGpuSeconds())
                .isEqualTo(record.total().allocatedGpuSeconds());

        mvc.perform(get("/api/v1/usage").param("groupBy", "job"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].team").value("showback"))
                .andExpect(jsonPath("$[0].job").value("train"))
                .andExpect(jsonPath("$[0].allocatedGpuHours").value(greaterThan(0.0)))
                .andExpect(jsonPath("$[0].usedGpuHours").value(0.0));
        mvc.perform(get("/api/v1/usage").header("Accept", "text/csv"))
                .andExpect(status().isOk())
                .andExpect(content().string(startsWith("department,team,job,allocatedGpuHours")));
    }

    @Test
    void aBadBucketIsA400NamingItAsJsonAndCsvAlike() throws Exception {
        mvc.perform(get("/api/v1/usage").param("bucket", "week"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("bucket"));
        mvc.perform(get("/api/v1/usage").param("bucket", "week").header("Accept", "text/csv"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("bucket"));
    }

    @Test
    void thePrometheusCountersCarryTheRecordsTotalsPerTeamAndQuotaState() throws Exception {
        mvc.perform(post("/api/v1/teams/showback/jobs")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"watched\", \"gpu\": {\"count\": 1}, \"image\": \"busybox:1.36\"}"))
                .andExpect(status().isCreated());
        recorder.tick();
        Thread.sleep(600);
        recorder.tick();
        meters.refresh();

        double inQuota = recorder.records().stream()
                .filter(r -> r.job().team().equals("showback"))
                .mapToDouble(r -> r.total().allocatedInQuotaGpuSeconds())
                .sum();
        assertThat(inQuota).as("1 GPU for at least 0.6 s").isGreaterThan(0.55);
        String scrape = mvc.perform(get("/actuator/prometheus"))
                .andExpect(status().isOk())
                .andReturn()
                .getResponse()
                .getContentAsString();
        String labels = "department=\"\",quota_state=\"in_quota\",team=\"showback\"";
        assertThat(sample(scrape, "quotient_gpu_allocated_seconds_total", labels))
                .isCloseTo(inQuota, offset(1e-6));
        assertThat(sample(scrape, "quotient_gpu_used_seconds_total", labels))
                .as("no enforcer: nothing measured")
                .isEqualTo(0.0);
        String borrowed = "department=\"\",quota_state=\"borrowed\",team=\"showback\"";
        assertThat(sample(scrape, "quotient_gpu_allocated_seconds_total", borrowed))
                .isEqualTo(0.0);
        assertThat(scrape).contains("# TYPE quotient_gpu_allocated_seconds_total counter");

        // the counters only grow: a later refresh publishes at least what the first did
        recorder.tick();
        meters.refresh();
        String later = mvc.perform(get("/actuator/prometheus"))
                .andReturn()
                .getResponse()
                .getContentAsString();
        assertThat(sample(later, "quotient_gpu_allocated_seconds_total", labels))
                .isGreaterThan(inQuota);
    }

    /** The value of the one sample of {@code name} whose labels include every one of {@code labels}. */
    private static double sample(String scrape, String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(scrape);
        List<String> wanted = List.of(labels.split(","));
        List<Double> values = new ArrayList<>();
        while (m.find()) {
            List<String> have = List.of(m.group(1).split(","));
            if (have.containsAll(wanted)) {
                values.add(Double.parseDouble(m.group(2)));
            }
        }
        assertThat(values)
                .as(name + "{" + labels + "} in the scrape:\n" + scrape)
                .hasSize(1);
        return values.get(0);
    }
}

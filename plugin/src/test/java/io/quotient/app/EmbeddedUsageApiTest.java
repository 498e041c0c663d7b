package io.quotient.app;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.usage.UsageRecorder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Usage accounting wired into the whole application on the embedded cluster: a placed job's allocation is counted
 * by the recorder and shown by {@code GET /api/v1/usage}. The embedded cluster has no node enforcer, so nothing is
 * measured: all of it is unmeasured, none of it used or idle.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
class EmbeddedUsageApiTest {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private UsageRecorder recorder;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        Path file = Files.createTempFile("quotient-teams", ".yaml");
        file.toFile().deleteOnExit();
        Files.writeString(file, "teams:\n  - name: showback\n    guaranteedGpus: 4\n");
        registry.add("quotient.teams-file", file::toString);
    }

    @Test
    void aPlacedJobsAllocationIsCountedAndShown() throws Exception {
        mvc.perform(post("/api/v1/teams/showback/jobs").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"train\", \"gpu\": {\"count\": 3}, \"image\": \"busybox:1.36\"}"))
                .andExpect(status().isCreated());
        recorder.tick();
        Thread.sleep(1200);
        recorder.tick();

        JobUsageRecord record = recorder.records().stream().filter(r -> r.job().equals(new JobId("showback", "train")))
                .findFirst().orElseThrow();
        assertThat(record.total().allocatedInQuotaGpuSeconds()).as("3 GPUs for at least 1.2 s").isGreaterThan(3.5);
        assertThat(record.total().unmeasuredGpuSeconds()).isEqualTo(record.total().allocatedGpuSeconds());

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
}

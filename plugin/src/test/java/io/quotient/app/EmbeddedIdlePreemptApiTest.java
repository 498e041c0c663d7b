package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.adapters.memory.EmbeddedCluster;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import io.quotient.deploy.DecisionService;
import io.quotient.deploy.IdleReclaim;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The idle policy's {@code preempt} through the REST API on the embedded cluster (one 8-GPU node, all team
 * {@code lab}'s): lab's notebook, submitted first, idles past {@code after} while lab's own training job, equal
 * priority and submitted later, waits for a GPU. The notebook is preempted and re-queued as of its release, behind the
 * waiter: the waiter is placed on the GPU it gave up, and the notebook waits (a later re-queue does not put it back
 * ahead either).
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
class EmbeddedIdlePreemptApiTest {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private EmbeddedCluster cluster;

    @Autowired
    private DecisionService decisions;

    @Autowired
    private IdleReclaim idle;

    @Autowired
    private JobRecordStore records;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        QuotaReclaimApiTest.embeddedFiles(
                registry,
                List.of(Map.of(
                        "name",
                        "lab",
                        "guaranteedGpus",
                        8,
                        "idle",
                        Map.of(
                                "kinds",
                                List.of("notebook"),
                                "after",
                                "30m",
                                "warnAfter",
                                "20m",
                                "threshold",
                                "5%",
                                "onlyWhenOthersWait",
                                true,
                                "action",
                                "preempt"))));
    }

    private ResultActions deploy(String body) throws Exception {
        return mvc.perform(post("/api/v1/teams/lab/jobs")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    @Test
    void aNotebookReleasedForAJobOfItsOwnTeamIsPlacedAgainOnlyAfterIt() throws Exception {
        deploy("{\"name\": \"nb\", \"kind\": \"notebook\", \"gpu\": {\"count\": 1}, \"image\": \"busybox:1.36\"}")
                .andExpect(status().isCreated());
        deploy("{\"name\": \"fill\", \"gpu\": {\"count\": 7}, \"image\": \"busybox:1.36\"}")
                .andExpect(status().isCreated());
        deploy("{\"name\": \"train-2\", \"gpu\": {\"count\": 1}, \"image\": \"busybox:1.36\"}")
                .andExpect(status().isAccepted());

        // as an enforcer would report it: counted for 31 minutes, never busy
        Instant since = Instant.now().minus(Duration.ofMinutes(31));
        double seconds = 31 * 60;
        cluster.reportPodUsage(List.of(new PodCounterReading(
                "n", "uid-nb", "gpu-0", new JobId("lab", "nb"), new PodCounters(since, seconds, seconds, 0, 0))));
        Instant beforeRelease = Instant.now();
        decisions.releaseIdle(idle);

        mvc.perform(get("/api/v1/teams/lab/jobs/train-2"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.phase").value(anyOf(is("Placed"), is("Running"))));
        mvc.perform(get("/api/v1/teams/lab/jobs/nb"))
                .andExpect(jsonPath("$.phase").value("Pending"))
                .andExpect(jsonPath("$.reason").value(startsWith("Preempted: idle: notebook nb of team lab (1 GPU)")));
        JobRecord notebook = records.find(new JobId("lab", "nb")).orElseThrow();
        assertThat(notebook.queuedAt())
                .as("its place in the queue counts from its release")
                .isAfterOrEqualTo(beforeRelease)
                .isAfter(records.find(new JobId("lab", "train-2")).orElseThrow().createdAt());

        // the waiter gone, the notebook is placed again on the GPU it freed
        mvc.perform(delete("/api/v1/teams/lab/jobs/train-2")).andExpect(status().is2xxSuccessful());
        decisions.requeuePending();
        mvc.perform(get("/api/v1/teams/lab/jobs/nb"))
                .andExpect(jsonPath("$.phase").value(anyOf(is("Placed"), is("Running"))));
    }
}

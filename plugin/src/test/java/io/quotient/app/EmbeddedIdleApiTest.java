package io.quotient.app;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
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
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The idle policy through the REST API on the embedded cluster: a request declares its {@code kind} (an unknown one is
 * a 400 naming the field), the teams file turns the policy on, and a notebook idle past {@code after} (its team
 * releases idle jobs whether or not others wait, action stop) is stopped, its job view saying why.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
class EmbeddedIdleApiTest {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private EmbeddedCluster cluster;

    @Autowired
    private DecisionService decisions;

    @Autowired
    private IdleReclaim idle;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, """
                teams:
                  - name: lab
                    guaranteedGpus: 2
                    idle: {kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%, onlyWhenOthersWait: false,
                           action: stop}
                """);
    }

    @Test
    void anIdleNotebookIsStoppedAndItsJobViewSaysWhy() throws Exception {
        mvc.perform(post("/api/v1/teams/lab/jobs")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"nb\", \"kind\": \"jupyter\", \"gpu\": {\"count\": 1}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("kind"))
                .andExpect(jsonPath("$.reason").value(containsString("train, notebook or inference")));
        mvc.perform(post("/api/v1/teams/lab/jobs")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"nb\", \"kind\": \"notebook\", \"gpu\": {\"count\": 1},"
                                + " \"image\": \"busybox:1.36\"}"))
                .andExpect(status().isCreated());
        mvc.perform(post("/api/v1/teams/lab/jobs")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"train\", \"gpu\": {\"count\": 1}, \"image\": \"busybox:1.36\"}"))
                .andExpect(status().isCreated());

        // as an enforcer would report them: both counted for 31 minutes, the notebook never busy
        Instant since = Instant.now().minus(Duration.ofMinutes(31));
        double seconds = 31 * 60;
        cluster.reportPodUsage(List.of(
                new PodCounterReading(
                        "n", "uid-nb", "gpu-0", new JobId("lab", "nb"), new PodCounters(since, seconds, seconds, 0, 0)),
                new PodCounterReading(
                        "n",
                        "uid-train",
                        "gpu-1",
                        new JobId("lab", "train"),
                        new PodCounters(since, seconds, seconds, 0, 0))));
        decisions.releaseIdle(idle);

        mvc.perform(get("/api/v1/teams/lab/jobs/nb"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.phase").value("Failed"))
                .andExpect(jsonPath("$.reason").value(startsWith("Stopped: idle: notebook nb of team lab (1 GPU)")))
                .andExpect(jsonPath("$.idle.reason").value("IdleReleased"))
                .andExpect(jsonPath("$.idle.message").value(containsString("idle for 31 min")));
        mvc.perform(get("/api/v1/teams/lab/jobs/train"))
                .andExpect(jsonPath("$.phase").value("Placed"))
                .andExpect(jsonPath("$.idle").doesNotExist());
    }
}

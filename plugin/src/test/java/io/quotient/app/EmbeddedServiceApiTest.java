package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.adapters.hook.DeployHook;
import io.quotient.adapters.hook.DeployOutcome;
import io.quotient.adapters.hook.HookDecision;
import io.quotient.adapters.hook.HookRequest;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.JobSubmission;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * The whole {@code serve} application on the embedded 4 × 10-GPU cluster, driven through its REST API as a user
 * would: every status code the API promises, the teams and cluster views, the OpenAPI document and the in-process
 * hook. Each test uses its own team so that the tests do not depend on each other's jobs.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
class EmbeddedServiceApiTest {

    private static final Path TEAMS = teamsFile();

    @Autowired
    private MockMvc mvc;

    @Autowired
    private DeployHook hook;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) {
        registry.add("quotient.teams-file", TEAMS::toString);
    }

    @Test
    void aPlacedJobIsCreatedReadListedAndDeleted() throws Exception {
        deploy(
                        "deploy",
                        "{\"name\": \"train\", \"gpu\": {\"count\": 3}, \"image\": \"busybox:1.36\","
                                + " \"command\": [\"sleep\", \"60\"]}")
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", endsWith("/api/v1/teams/deploy/jobs/train")))
                .andExpect(jsonPath("$.team").value("deploy"))
                .andExpect(jsonPath("$.name").value("train"))
                .andExpect(jsonPath("$.phase").value("Placed"))
                .andExpect(jsonPath("$.node").value(startsWith("gpu-node-")))
                .andExpect(jsonPath("$.gpus", hasSize(3)))
                .andExpect(jsonPath("$.gpus[0].fraction").value(1.0))
                .andExpect(jsonPath("$.quotaState").value("InQuota"))
                .andExpect(jsonPath("$.reason").value(nullValue()));

        mvc.perform(get("/api/v1/teams/deploy/jobs/train"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.gpus", hasSize(3)));
        mvc.perform(get("/api/v1/teams/deploy/jobs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].name", hasItem("train")));
        mvc.perform(delete("/api/v1/teams/deploy/jobs/train")).andExpect(status().isOk());
        mvc.perform(get("/api/v1/teams/deploy/jobs/train"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.field").value("name"));
        mvc.perform(get("/api/v1/teams/deploy/jobs")).andExpect(jsonPath("$", hasSize(0)));
    }

    @Test
    void aFractionGetsOneGpuWithItsShare() throws Exception {
        deploy(
                        "fractions",
                        "{\"name\": \"notebook\", \"template\": \"notebook\","
                                + " \"gpu\": {\"fraction\": 0.25, \"fractionLimit\": 0.5}}")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.template").value("notebook"))
                .andExpect(jsonPath("$.gpus", hasSize(1)))
                .andExpect(jsonPath("$.gpus[0].fraction").value(0.25))
                .andExpect(jsonPath("$.gpus[0].uuid").value(startsWith("GPU-")));
    }

    @Test
    void aTeamAtItsMaximumWaitsWith202AndTheReason() throws Exception {
        deploy("capped", "{\"name\": \"first\", \"gpu\": {\"count\": 2}, \"preemptible\": true}")
                .andExpect(status().isCreated());

        deploy("capped", "{\"name\": \"second\", \"gpu\": {\"count\": 1}, \"preemptible\": true}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.phase").value("Pending"))
                .andExpect(jsonPath("$.node").value(nullValue()))
                .andExpect(jsonPath("$.reason").value(containsString("max")));
        mvc.perform(get("/api/v1/teams"))
                .andExpect(jsonPath("$[?(@.name == 'capped')].pendingJobs").value(1));
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndCreatesNothing() throws Exception {
        refused("{\"name\": \"f\", \"gpu\": {\"fraction\": 1.5}}", "gpu.fraction");
        refused("{\"name\": \"f\", \"gpu\": {\"fraction\": 0.5, \"fractionLimit\": 0.3}}", "gpu.fractionLimit");
        refused("{\"name\": \"f\", \"gpu\": {\"fraction\": 0.5, \"memoryMib\": 2000}}", "gpu.memoryMib");
        refused("{\"name\": \"f\", \"template\": \"no-such\", \"gpu\": {\"count\": 1}}", "template");
        refused("{\"name\": \"" + "n".repeat(64) + "\", \"gpu\": {\"count\": 1}}", "name");
        refused("{\"name\": \"Bad_Name!\", \"gpu\": {\"count\": 1}}", "name");
        refused("{\"name\": \"f\", \"gpu\": {\"count\": 1, \"fractoinLimit\": 1}}", "gpu.fractoinLimit");
        refused("{\"name\": \"f\", \"gpu\": {\"count\": \"two\"}}", "gpu.count");
        // what the template cannot render is refused now, not after the job was placed
        refused(
                "{\"name\": \"f\", \"template\": \"job\", \"runtime\": \"torch-distributed\","
                        + " \"gpu\": {\"count\": 1}}",
                "runtime");
        refused("{\"name\": \"f\", \"template\": \"job\", \"replicas\": 2, \"gpu\": {\"count\": 8}}", "replicas");
        deploy("bad", "not json")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.reason").isNotEmpty());

        mvc.perform(get("/api/v1/teams/bad/jobs")).andExpect(jsonPath("$", hasSize(0)));
        mvc.perform(get("/api/v1/teams"))
                .andExpect(jsonPath("$[?(@.name == 'bad')].allocatedGpus").value(0.0));
    }

    @Test
    void unknownTeamIs404AndATakenNameIs409() throws Exception {
        deploy("nobody", "{\"name\": \"x\", \"gpu\": {\"count\": 1}}")
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.field").value("team"))
                .andExpect(jsonPath("$.reason").value(containsString("nobody")));

        deploy("taken", "{\"name\": \"same\", \"gpu\": {\"count\": 1}}").andExpect(status().isCreated());
        deploy("taken", "{\"name\": \"same\", \"gpu\": {\"count\": 2}}")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.field").value("name"));
        mvc.perform(get("/api/v1/teams/taken/jobs/same")).andExpect(jsonPath("$.gpus", hasSize(1)));
    }

    @Test
    void teamsAndClusterViewsCarryQuotasSharesAndFragmentation() throws Exception {
        deploy("views", "{\"name\": \"half\", \"gpu\": {\"fraction\": 0.5}}").andExpect(status().isCreated());

        mvc.perform(get("/api/v1/teams"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'views')].guaranteedGpus").value(4.0))
                .andExpect(jsonPath("$[?(@.name == 'views')].maxGpus").value(8.0))
                .andExpect(jsonPath("$[?(@.name == 'views')].overQuotaWeight").value(2.0))
                .andExpect(jsonPath("$[?(@.name == 'views')].allocatedGpus").value(0.5))
                .andExpect(jsonPath("$[?(@.name == 'views')].inQuotaGpus").value(0.5))
                .andExpect(jsonPath("$[?(@.name == 'views')].overQuotaGpus").value(0.0))
                .andExpect(jsonPath("$[?(@.name == 'views')].pendingJobs").value(0));
        mvc.perform(get("/api/v1/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.totalGpus").value(40.0))
                .andExpect(jsonPath("$.nodes", hasSize(4)))
                .andExpect(jsonPath("$.nodes[0].gpus", hasSize(10)))
                .andExpect(jsonPath("$.nodes[*].gpus[*].jobs[?(@.name == 'half')].share")
                        .value(0.5))
                .andExpect(jsonPath("$.fragmentation.amountPercent").isNumber())
                .andExpect(jsonPath("$.fragmentation.ratioPercent").isNumber());
    }

    @Test
    void theOpenApiDescriptionListsTheEndpoints() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paths['/api/v1/teams/{team}/jobs'].post").exists())
                .andExpect(jsonPath("$.paths['/api/v1/teams/{team}/jobs/{name}'].delete")
                        .exists())
                .andExpect(jsonPath("$.paths['/api/v1/teams'].get").exists())
                .andExpect(jsonPath("$.paths['/api/v1/cluster'].get").exists());
    }

    @Test
    void theInProcessHookHasTheRestSemantics() throws Exception {
        JobSubmission job = HookRequest.job("hook", "nightly-ingest")
                .wholeGpus(2)
                .image("registry.example/ingest:1.4")
                .command("python", "ingest.py")
                .preemptible(true)
                .label("vdk.io/data-job", "nightly-ingest")
                .env("RUN_DATE", "2026-11-23")
                .build();

        HookDecision decision = hook.beforeDeploy(job);

        assertThat(decision.placed()).isTrue();
        assertThat(decision.gpus()).hasSize(2);
        assertThat(decision.quotaState()).isEqualTo("InQuota");
        mvc.perform(get("/api/v1/teams/hook/jobs/nightly-ingest"))
                .andExpect(jsonPath("$.node").value(decision.node()));

        assertThatThrownBy(() -> hook.beforeDeploy(
                        HookRequest.job("hook", "Bad_Name!").wholeGpus(1).build()))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo("name"));
        assertThatThrownBy(() -> hook.beforeDeploy(
                        HookRequest.job("hook", "frac").fraction(0.5, 0.3).build()))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo("gpu.fractionLimit"));

        hook.afterDeploy(decision.job(), DeployOutcome.failed("the control service's bookkeeping failed"));
        mvc.perform(get("/api/v1/teams/hook/jobs/nightly-ingest")).andExpect(status().isNotFound());
    }

    @Test
    void notebooksAreNotPreemptibleUnlessTheRequestSaysSoAndSoNeverBorrow() throws Exception {
        deploy("interactive", "{\"name\": \"nb-1\", \"template\": \"notebook\", \"gpu\": {\"count\": 1}}")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.quotaState").value("InQuota"));

        // the guarantee (1 GPU) is used: a second notebook may not borrow, as the template declares
        deploy("interactive", "{\"name\": \"nb-2\", \"template\": \"notebook\", \"gpu\": {\"count\": 1}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.phase").value("Pending"))
                .andExpect(jsonPath("$.reason").value(containsString("non-preemptible")));
        // a batch job (template "job") borrows idle GPUs by default, and so does a notebook that asks to
        deploy("interactive", "{\"name\": \"batch\", \"gpu\": {\"count\": 1}}")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.quotaState").value("OverQuota"));
        deploy(
                        "interactive",
                        "{\"name\": \"nb-3\", \"template\": \"notebook\", \"gpu\": {\"count\": 1},"
                                + " \"preemptible\": true}")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.quotaState").value("OverQuota"));
    }

    private ResultActions deploy(String team, String body) throws Exception {
        return mvc.perform(post("/api/v1/teams/" + team + "/jobs")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    private void refused(String body, String field) throws Exception {
        deploy("bad", body)
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.reason").isNotEmpty())
                .andExpect(jsonPath("$.hint").isNotEmpty());
    }

    private static Path teamsFile() {
        StringBuilder yaml = new StringBuilder("teams:\n");
        for (String team : List.of("deploy", "fractions", "bad", "taken", "hook")) {
            yaml.append("  - name: ").append(team).append("\n    guaranteedGpus: 4\n");
        }
        yaml.append("  - name: interactive\n    guaranteedGpus: 1\n");
        yaml.append("  - name: capped\n    guaranteedGpus: 1\n    maxGpus: 2\n");
        yaml.append("  - name: views\n    guaranteedGpus: 4\n    maxGpus: 8\n    overQuotaWeight: 2\n");
        try {
            Path file = Files.createTempFile("quotient-teams", ".yaml");
            file.toFile().deleteOnExit();
            return Files.writeString(file, yaml.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

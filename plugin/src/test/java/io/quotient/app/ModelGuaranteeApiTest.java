package io.quotient.app;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
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
 * Guarantees per GPU model through the REST API of the embedded service: one node of 4 H100s and one of 4 A100s;
 * team {@code owner} is guaranteed 2 H100s, {@code borrower} nothing. The owner takes back H100s, not A100s, and the
 * teams view shows its group's guarantee, holding and borrowing.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
@AutoConfigureMockMvc
class ModelGuaranteeApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private MockMvc mvc;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        QuotaReclaimApiTest.twoModels(registry);
    }

    private ResultActions deploy(String team, String name, int gpus, String... models) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("gpu", Map.of("count", gpus));
        body.put("preemptible", true);
        if (models.length > 0) {
            body.put("gpuModels", List.of(models));
        }
        return mvc.perform(post("/api/v1/teams/" + team + "/jobs")
                .contentType(MediaType.APPLICATION_JSON)
                .content(JSON.writeValueAsString(body)));
    }

    @Test
    void anH100GuaranteeTakesBackH100sAndTheTeamsViewShowsTheGroup() throws Exception {
        deploy("borrower", "on-h100", 4, "H100-80GB").andExpect(status().isCreated());
        deploy("borrower", "on-a100", 4, "A100-SXM4-80GB").andExpect(status().isCreated());

        // unpinned: the owner's H100 group has room, so the borrowed H100 job goes and the A100 job stays
        deploy("owner", "two", 2).andExpect(status().isCreated());
        mvc.perform(get("/api/v1/teams/borrower/jobs/on-h100"))
                .andExpect(jsonPath("$.phase").value(anyOf(is("Pending"), is("Preempted"))))
                .andExpect(jsonPath("$.reason").value(containsString("reclaiming its guarantee")));
        mvc.perform(get("/api/v1/teams/borrower/jobs/on-a100"))
                .andExpect(jsonPath("$.phase").value(anyOf(is("Placed"), is("Running"))));

        // the group is full now: one more H100 is borrowed (2 are idle on the H100 node)
        deploy("owner", "more", 1, "H100-80GB").andExpect(status().isCreated());
        mvc.perform(get("/api/v1/teams"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'owner')].guaranteedGpus").value(2.0))
                .andExpect(
                        jsonPath("$[?(@.name == 'owner')].modelGroups[0].name").value("H100-80GB"))
                .andExpect(jsonPath("$[?(@.name == 'owner')].modelGroups[0].guaranteedGpus")
                        .value(2.0))
                .andExpect(jsonPath("$[?(@.name == 'owner')].modelGroups[0].heldGpus")
                        .value(3.0))
                .andExpect(jsonPath("$[?(@.name == 'owner')].modelGroups[0].inQuotaGpus")
                        .value(2.0))
                .andExpect(jsonPath("$[?(@.name == 'owner')].modelGroups[0].borrowedGpus")
                        .value(1.0))
                .andExpect(jsonPath("$[?(@.name == 'borrower')].modelGroups.length()")
                        .value(0));
    }
}

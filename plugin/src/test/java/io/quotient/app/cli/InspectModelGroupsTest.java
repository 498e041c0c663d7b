package io.quotient.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.app.QuotaReclaimApiTest;
import io.quotient.app.QuotientApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code quotient inspect}'s per-group table for a seeded embedded cluster ({@link QuotaReclaimApiTest#twoModels}):
 * the service's dashboard answer, rendered as the command prints it, shows the owner's H100 group with its
 * guarantee, holding, borrowing and fair share.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
@AutoConfigureMockMvc
class InspectModelGroupsTest {

    @Autowired
    private MockMvc mvc;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        QuotaReclaimApiTest.twoModels(registry);
    }

    @Test
    void theTeamsModelGroupsShowGuaranteedHeldBorrowedAndFairShare() throws Exception {
        for (String[] job : QuotaReclaimApiTest.TWO_MODEL_JOBS) {
            mvc.perform(post("/api/v1/teams/" + job[0] + "/jobs")
                            .contentType(MediaType.APPLICATION_JSON)
                            .content(job[1]))
                    .andExpect(status().is(Integer.parseInt(job[2])));
        }
        String answer = mvc.perform(get("/api/v1/dashboard"))
                .andExpect(status().isOk())
                .andReturn()
                .getResponse()
                .getContentAsString();

        String text = InspectReport.render(new ObjectMapper().readTree(answer));

        assertThat(text)
                .contains("MODEL GROUPS")
                .containsPattern("TEAM\\s+GROUP\\s+GUARANTEED\\s+MAX\\s+HELD\\s+BORROWED\\s+FAIR SHARE")
                .containsPattern("owner\\s+H100-80GB\\s+2\\s+-\\s+3\\s+1\\s+3\\n")
                .containsPattern("borrower\\s+wait-h100\\s+2\\s+Pending\\s+to borrow in H100-80GB: ");
    }
}

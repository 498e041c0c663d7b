package io.quotient.app;

import static io.quotient.app.QuotaReclaimApiTest.deploy;
import static io.quotient.app.QuotaReclaimApiTest.embeddedFiles;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Usage-decayed fair share through the REST API of the embedded service (one 8-GPU node, teams a and b without
 * guarantees, half-life 1 hour, window 1 day), on a clock the test moves: a team that borrowed 4 GPUs for the last
 * hour shows a decayed usage of 2 GPUs, and its fair share of the cluster drops from 4 to 3.
 */
@SpringBootTest(
        classes = {QuotientApplication.class, MutableClockConfiguration.class},
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.scheduling.fair-share.usage-half-life=1h",
            "quotient.scheduling.fair-share.window=1d",
            // no periodic re-queue during the test: every snapshot is one the test makes
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
@AutoConfigureMockMvc
class UsageDecayApiTest {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private MutableClock clock;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        embeddedFiles(
                registry, List.of(Map.of("name", "a", "guaranteedGpus", 0), Map.of("name", "b", "guaranteedGpus", 0)));
    }

    @Test
    void aTeamThatBorrowedLatelyShowsItsDecayedUsageAndASmallerFairShare() throws Exception {
        deploy(mvc, "a", "a4", 4).andExpect(status().isCreated());
        // the next decision's snapshot records that a borrows 4 from now on
        deploy(mvc, "a", "a1", 1).andExpect(status().isCreated());
        clock.advance(Duration.ofHours(1));
        // 4 GPUs over the last half-life: 4 x (1 - 1/2) = 2 GPUs
        mvc.perform(get("/api/v1/teams"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'a')].decayedUsageGpus").value(2.0))
                .andExpect(jsonPath("$[?(@.name == 'b')].decayedUsageGpus").value(0.0));
        // b wants the whole node: the 8 GPUs are divided so that past + share per weight is equal: a 3, b 5
        deploy(mvc, "b", "b8", 8).andExpect(status().isAccepted());
        mvc.perform(get("/api/v1/teams"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'a')].fairShareGpus").value(3.0))
                .andExpect(jsonPath("$[?(@.name == 'b')].fairShareGpus").value(5.0))
                // the over-quota share is the fair share beyond the guarantee (0 here), with the half-life behind it
                .andExpect(jsonPath("$[?(@.name == 'a')].overQuotaShareGpus").value(3.0))
                .andExpect(jsonPath("$[?(@.name == 'b')].overQuotaShareGpus").value(5.0))
                .andExpect(jsonPath("$[?(@.name == 'a')].usageHalfLife").value("PT1H"));
    }
}

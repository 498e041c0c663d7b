package io.quotient.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotient.app.QuotaReclaimApiTest;
import io.quotient.app.QuotientApplication;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard's per-group team table in Debian's headless Chromium, for a seeded embedded cluster with an H100 node
 * and an A100 node ({@link QuotaReclaimApiTest#twoModels}): after the jobs are submitted, the owner's row for its H100
 * group shows the guarantee, holding, borrowing and fair share that {@code GET /api/v1/teams} reports.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
class ModelGroupsBrowserTest {

    private static final Duration PAGE_UPDATE = Duration.ofSeconds(15);
    private static ChromiumBrowser browser;

    @RegisterExtension
    final AfterTestExecutionCallback screenshotOnFailure = c -> DashboardPage.screenshotOnFailure(browser, c);

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        QuotaReclaimApiTest.twoModels(registry);
    }

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = ChromiumBrowser.start(1400, 1000);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theTeamTableShowsEachGroupsGuaranteeHoldingBorrowingAndFairShare() throws Exception {
        DashboardPage service = new DashboardPage(browser, port);
        WebDriver page = browser.driver();
        page.get(service.base() + "/");
        for (String[] job : QuotaReclaimApiTest.TWO_MODEL_JOBS) {
            service.deploy(job[0], job[1], Integer.parseInt(job[2]));
        }
        By h100 = By.cssSelector(".team[data-team='owner'] table.groups tr[data-group='H100-80GB']");
        service.await(
                "the owner's H100 group holding 3",
                PAGE_UPDATE,
                d -> "3".equals(d.findElement(h100).getAttribute("data-held")));
        JsonNode group = null;
        for (JsonNode t : service.get("/api/v1/teams")) {
            if (t.path("name").asText().equals("owner")) {
                group = t.path("modelGroups").get(0);
            }
        }
        WebElement row = page.findElement(h100);
        assertThat(group.path("fairShareGpus").asDouble()).isEqualTo(3.0);
        assertThat(Double.parseDouble(row.getAttribute("data-guaranteed")))
                .isEqualTo(group.path("guaranteedGpus").asDouble())
                .isEqualTo(2.0);
        assertThat(Double.parseDouble(row.getAttribute("data-borrowed")))
                .isEqualTo(group.path("borrowedGpus").asDouble())
                .isEqualTo(1.0);
        assertThat(Double.parseDouble(row.getAttribute("data-fair-share")))
                .isEqualTo(group.path("fairShareGpus").asDouble());
        assertThat(row.getText()).isEqualTo("H100-80GB 2 3 1 3");
        assertThat(page.findElements(By.cssSelector(".team[data-team='borrower'] table.groups")))
                .as("a team whose quota is any model has no group rows")
                .isEmpty();
        assertThat(page.findElement(By.cssSelector("#pending tbody tr[data-job='borrower/wait-h100']"))
                        .getText())
                .contains("to borrow in H100-80GB");
    }
}

package io.quotient.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotient.adapters.memory.InMemoryUsageRecordStore;
import io.quotient.app.QuotaReclaimApiTest;
import io.quotient.app.QuotientApplication;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageCounters;
import io.quotient.deploy.port.UsageRecordStore;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import io.quotient.usage.UsageRecorder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard's usage panel and fair-share column in Debian's headless Chromium, on the embedded service (one
 * 8-GPU node; teams a, b without guarantees, c with 2; half-life 1 hour) and a clock the test moves. Team c's job
 * {@code history} has a scripted usage record of known GPU-seconds (4 GPU-hours, 1 used, in the last hour; 10, 5
 * used, three days ago; 20 borrowed and unmeasured, twenty days ago), so each window's figures are known; team a
 * borrows 4 GPUs for an hour, so its decayed usage is 2 GPUs and its over-quota share 3 of the 8 (as
 * {@code UsageDecayApiTest}). The page's figures must equal the API's, for each window the switch selects.
 */
@SpringBootTest(
        classes = {QuotientApplication.class, UsagePanelBrowserTest.Scripted.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "quotient.cluster.mode=embedded",
            "quotient.scheduling.fair-share.usage-half-life=1h",
            "quotient.scheduling.fair-share.window=1d",
            "quotient.schedules.requeue-interval=1h",
            "quotient.schedules.reclaim-interval=1h"
        })
class UsagePanelBrowserTest {

    private static final Duration PAGE_UPDATE = Duration.ofSeconds(30);
    private static final MutableClock CLOCK = new MutableClock(TestClocks.START);
    /** The test's "now" once team a has borrowed for an hour: the windows end here. */
    private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

    private static final List<String> FIGURES =
            List.of("allocated", "inQuota", "borrowed", "used", "idle", "unmeasured");
    private static ChromiumBrowser browser;

    @RegisterExtension
    final AfterTestExecutionCallback screenshotOnFailure = c -> DashboardPage.screenshotOnFailure(browser, c);

    @LocalServerPort
    private int port;

    @Autowired
    private UsageRecorder recorder;

    @TestConfiguration
    static class Scripted {
        @Bean
        @Primary
        MutableClock testClock() {
            return CLOCK;
        }

        /** The store the recorder starts from: team c's scripted record (the embedded store, seeded). */
        @Bean
        @Primary
        UsageRecordStore scriptedUsage() {
            InMemoryUsageRecordStore store = new InMemoryUsageRecordStore();
            store.save(List.of(history()));
            return store;
        }
    }

    /** 4 GPU-hours in quota at 00:00 today (1 used), 10 three days ago (5 used), 20 borrowed unmeasured 20 days ago. */
    static JobUsageRecord history() {
        UsageCounters lastHour = new UsageCounters(4 * 3600, 0, 4 * 3600, 0, 3600, 4 * 3600, 4 * 3600, 0);
        UsageCounters threeDaysAgo = new UsageCounters(10 * 3600, 0, 10 * 3600, 0, 5 * 3600, 36000, 36000, 0);
        UsageCounters twentyDaysAgo = new UsageCounters(0, 20 * 3600, 20 * 3600, 0, 0, 0, 0, 0);
        Instant since = Instant.parse("2025-12-12T00:00:00Z");
        return new JobUsageRecord(
                new JobId("c", "history"),
                since,
                since,
                Map.of(
                        LocalDate.parse("2026-01-01"), lastHour,
                        LocalDate.parse("2025-12-29"), threeDaysAgo,
                        LocalDate.parse("2025-12-12"), twentyDaysAgo),
                Map.of(),
                Map.of(
                        Instant.parse("2026-01-01T00:00:00Z"), lastHour,
                        Instant.parse("2025-12-29T10:00:00Z"), threeDaysAgo));
    }

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        QuotaReclaimApiTest.embeddedFiles(
                registry,
                List.of(
                        Map.of("name", "a", "guaranteedGpus", 0),
                        Map.of("name", "b", "guaranteedGpus", 0),
                        Map.of("name", "c", "guaranteedGpus", 2)));
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
    void thePanelShowsTheApisGpuHoursPerWindowAndTheColumnTheDecayedUsage() throws Exception {
        deploy("a", "a4", 4, 201);
        deploy("a", "a1", 1, 201); // its decision's snapshot records that a borrows 4 from now on
        recorder.tick(); // usage accounting starts counting a's jobs here
        CLOCK.advance(Duration.between(CLOCK.instant(), NOW));
        recorder.tick();
        deploy("b", "b8", 8, 202); // b wants the node: 8 GPUs divided by past + share per weight: a 3, b 5

        WebDriver page = browser.driver();
        page.get(service().base() + "/");

        // the fair-share column: a's decayed usage and the over-quota share it leaves, as GET /api/v1/teams says
        await("a's decayed usage", d -> Double.parseDouble(fairness("a").getAttribute("data-decayed-usage")) == 2.0);
        JsonNode teams = get("/api/v1/teams");
        for (JsonNode t : teams) {
            WebElement cell = fairness(t.path("name").asText());
            assertThat(cell.getAttribute("data-fairness")).isEqualTo("decayed");
            assertThat(Double.parseDouble(cell.getAttribute("data-decayed-usage")))
                    .isEqualTo(t.path("decayedUsageGpus").asDouble());
            assertThat(Double.parseDouble(cell.getAttribute("data-over-quota-share")))
                    .isEqualTo(t.path("overQuotaShareGpus").asDouble());
        }
        assertThat(fairness("a").getText()).contains("decayed usage 2 → over-quota share 3", "half-life 1h");
        assertThat(fairness("b").getText()).contains("decayed usage 0 → over-quota share 5");

        // the usage panel, window by window: the page's per-team figures are the API's rows of the window, added
        Map<String, Map<String, Double>> day =
                checkWindow("24h", "hour", NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(23)));
        assertThat(day.get("c"))
                .as("team c's scripted last hour")
                .containsExactlyInAnyOrderEntriesOf(figures(4, 4, 0, 1, 3, 0));
        assertThat(day.get("a").get("allocated"))
                .as("a's 5 GPUs since the last observation, at most max-gap (5 min)")
                .isCloseTo(5 * 5 / 60.0, within(1e-3));
        assertThat(day.get("a").get("unmeasured")).isEqualTo(day.get("a").get("allocated"));
        assertThat(page.findElements(By.cssSelector("#usage-chart g[data-team='c']")))
                .extracting(g -> g.getAttribute("data-bucket"))
                .containsExactly("2026-01-01T00:00:00.000Z");

        Map<String, Map<String, Double>> week = checkWindow("7d", "day", Instant.parse("2025-12-26T00:00:00Z"));
        assertThat(week.get("c")).containsExactlyInAnyOrderEntriesOf(figures(14, 14, 0, 6, 8, 0));
        assertThat(page.findElements(By.cssSelector("#usage-chart g[data-team='c']")))
                .extracting(g -> g.getAttribute("data-used"))
                .containsExactly("5", "1");

        Map<String, Map<String, Double>> month = checkWindow("30d", "day", Instant.parse("2025-12-03T00:00:00Z"));
        assertThat(month.get("c")).containsExactlyInAnyOrderEntriesOf(figures(34, 14, 20, 6, 8, 20));
        assertThat(usageRow("c").getText())
                .contains("allocated 34 GPU-h (in quota 14 · borrowed 20) · used 6 · idle 8 · unmeasured 20")
                .contains("utilization 43 %");

        // and back: the 24-hour window again
        checkWindow("24h", "hour", NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(23)));
        browser.screenshot(Path.of("target/dashboard-usage.png"));
        String docs = System.getProperty("dashboard.usage.screenshot");
        if (docs != null && !docs.isBlank()) {
            browser.screenshot(Path.of(docs));
        }
    }

    /**
     * Selects a window and waits until the panel shows, for every team, the API's figures of that window (its rows
     * from {@code first} on, added up); returns them per team.
     */
    private Map<String, Map<String, Double>> checkWindow(String window, String bucket, Instant first) throws Exception {
        WebDriver page = browser.driver();
        page.findElement(By.cssSelector("#usage-window button[data-window='" + window + "']"))
                .click();
        String from = LocalDate.ofInstant(first, ZoneOffset.UTC).toString();
        Map<String, Map<String, Double>> expected = new LinkedHashMap<>();
        await("the " + window + " window", d -> {
            if (!window.equals(d.findElement(By.id("usage-section")).getAttribute("data-window"))) {
                return false;
            }
            expected.clear();
            expected.putAll(apiTotals(from, bucket, first));
            List<WebElement> rows = d.findElements(By.cssSelector("#usage-teams .uteam"));
            if (rows.size() != expected.size()) {
                return false;
            }
            for (WebElement row : rows) {
                Map<String, Double> api = expected.get(row.getAttribute("data-team"));
                if (api == null || FIGURES.stream().anyMatch(f -> Math.abs(api.get(f) - pageFigure(row, f)) > 1e-3)) {
                    return false;
                }
            }
            return true;
        });
        assertThat(page.findElement(By.cssSelector("#usage-window button[data-window='" + window + "']"))
                        .getAttribute("aria-pressed"))
                .isEqualTo("true");
        assertThat(page.findElement(By.id("usage-section")).getAttribute("data-from"))
                .isEqualTo(first.toString().replace("Z", ".000Z"));
        return expected;
    }

    /** The API's rows of the window (bucket start from {@code first} on) added up per team. */
    private Map<String, Map<String, Double>> apiTotals(String from, String bucket, Instant first) {
        try {
            Map<String, Map<String, Double>> totals = new LinkedHashMap<>();
            for (JsonNode row :
                    get("/api/v1/usage?groupBy=team&bucket=" + bucket + "&from=" + from + "&to=2026-01-01")) {
                if (Instant.parse(row.path("bucket").asText()).isBefore(first)) {
                    continue;
                }
                Map<String, Double> team =
                        totals.computeIfAbsent(row.path("team").asText(), t -> figures(0, 0, 0, 0, 0, 0));
                FIGURES.forEach(f -> team.merge(f, row.path(f + "GpuHours").asDouble(), Double::sum));
            }
            return totals;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Double> figures(
            double allocated, double inQuota, double borrowed, double used, double idle, double unmeasured) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("allocated", allocated);
        f.put("inQuota", inQuota);
        f.put("borrowed", borrowed);
        f.put("used", used);
        f.put("idle", idle);
        f.put("unmeasured", unmeasured);
        return f;
    }

    private static double pageFigure(WebElement row, String figure) {
        String attribute = "data-" + figure.replaceAll("([A-Z])", "-$1").toLowerCase();
        return Double.parseDouble(row.getAttribute(attribute));
    }

    private WebElement fairness(String team) {
        return browser.driver().findElement(By.cssSelector(".team[data-team='" + team + "'] .fairness"));
    }

    private WebElement usageRow(String team) {
        return browser.driver().findElement(By.cssSelector("#usage-teams .uteam[data-team='" + team + "']"));
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return service().get(path);
    }

    private void deploy(String team, String name, int gpus, int expected) throws IOException, InterruptedException {
        service()
                .deploy(
                        team,
                        "{\"name\": \"" + name + "\", \"gpu\": {\"count\": " + gpus + "}, \"preemptible\": true}",
                        expected);
    }

    private void await(String what, Function<WebDriver, Boolean> condition) {
        service().await(what, PAGE_UPDATE, condition);
    }

    private DashboardPage service() {
        return new DashboardPage(browser, port);
    }
}
